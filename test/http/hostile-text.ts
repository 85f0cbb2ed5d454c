/**
 * Everything a hostile writer could put in a name, a reason or a sheet that PostgreSQL can store
 * (all but NUL): line breaks that would start iCalendar properties, controls and non-characters
 * XML forbids, direction overrides, a CDATA end and markup.
 */
export const HOSTILE_TEXT =
  'Orione\r\nBEGIN:VEVENT\r\nSUMMARY:injected\r\nEND:VEVENT\u0001\u0008\u000B\u001F\uFFFE\uFFFF\u{1FFFF}\uFDD0' +
  '\u202Eevil\u202C\u2066x\u2069 ]]> <script>alert(1)</script> & "q"';
