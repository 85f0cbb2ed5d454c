// Deadlines in the viewer's own time zone, next to the game's: every <time data-local> gets its
// instant written out by the browser (absolute, never "in 59 minutes"). Text only, no markup.
(function () {
  'use strict';
  function run() {
    var lang = document.documentElement.lang || 'en';
    var zone;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (e) {
      zone = '';
    }
    var fmt = new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    var nodes = document.querySelectorAll('time[data-local]');
    for (var i = 0; i < nodes.length; i++) {
      var t = nodes[i];
      var at = new Date(t.getAttribute('datetime'));
      if (isNaN(at.getTime())) continue;
      var span = document.createElement('span');
      span.className = 'local-time';
      span.textContent = (t.getAttribute('data-local') || '') + ': ' + fmt.format(at) + (zone ? ' (' + zone + ')' : '');
      t.parentNode.insertBefore(span, t.nextSibling);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
  else run();
})();
