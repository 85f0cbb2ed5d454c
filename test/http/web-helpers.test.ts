// The small pieces under the public pages: escaping templates, language choice, the render cache
// and conditional requests. Pure, no server.
import { describe, expect, it } from 'vitest';
import { cookieValue, fromAcceptLanguage } from '../../src/http/web/lang.ts';
import { RenderCache, acceptedEncodings, safeJson, type Rendered } from '../../src/http/web/respond.ts';
import { Html, html, renderTemplate, trusted } from '../../src/http/web/template.ts';
import { html as consoleHtml, fromTemplate } from '../../src/http/referee/html.ts';

describe('html templates', () => {
  it('escapes every interpolated string, lists included, and passes Html through', () => {
    const name = `<script>alert("x")</script>&'`;
    const out = html`<p title="${name}">${name}${[name, html`<b>${name}</b>`]}${trusted('<i>ok</i>')}${null}${false}${3}</p>`;
    expect(out).toBeInstanceOf(Html);
    expect(out.value).not.toContain('<script>');
    expect(out.value).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(out.value).toContain('<b>&lt;script&gt;');
    expect(out.value).toContain('<i>ok</i>3</p>');
  });

  it('fills templates/web files: {{x}} escaped, {{{x}}} only takes markup, a missing value throws', () => {
    const page = renderTemplate('home', { heading: '<h1>', table: html`<table></table>` });
    expect(page.value).toContain('<h1>&lt;h1&gt;</h1>');
    expect(page.value).toContain('<table></table>');
    expect(() => renderTemplate('home', { heading: 'x', table: '<table>' })).toThrow(/takes markup/);
    expect(() => renderTemplate('home', { heading: 'x' })).toThrow(/no value for table/);
    expect(() => renderTemplate('../layout', {})).toThrow(/bad template name/);
  });

  it('is one Html for the public pages and the console: markup made by one is not escaped again by the other', () => {
    const fromPage = html`<b>${'<x>'}</b>`;
    expect(consoleHtml`<p>${fromPage}</p>`.value).toBe('<p><b>&lt;x&gt;</b></p>');
    expect(fromTemplate('login', { csrf: html`c`, email: html`e`, message: consoleHtml`<i>${'&'}</i>` }).value).toContain('<i>&amp;</i>');
    expect(renderTemplate('home', { heading: 'h', table: consoleHtml`<table>${'<'}</table>` }).value).toContain('<table>&lt;</table>');
  });
});

describe('language', () => {
  it('picks it or en by q-value from Accept-Language', () => {
    expect(fromAcceptLanguage('it-IT,it;q=0.9,en;q=0.8')).toBe('it');
    expect(fromAcceptLanguage('de-DE, en;q=0.5, it;q=0.7')).toBe('it');
    expect(fromAcceptLanguage('en-GB, it;q=0.2')).toBe('en');
    expect(fromAcceptLanguage('de, fr')).toBeNull();
    expect(fromAcceptLanguage('it;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage(undefined)).toBeNull();
    // Hostile sizes stay linear and bounded.
    expect(fromAcceptLanguage(`${'x;q=1,'.repeat(100_000)}it`)).toBeNull();
  });

  it('reads one cookie among others', () => {
    expect(cookieValue('a=1; sf_lang=it; b=2', 'sf_lang')).toBe('it');
    expect(cookieValue('sf_langx=it', 'sf_lang')).toBeNull();
    expect(cookieValue(undefined, 'sf_lang')).toBeNull();
  });
});

describe('the render cache', () => {
  it('reuses a render within its time, renders again after, and keeps Last-Modified while the body is the same', async () => {
    let now = 1_000_000;
    let renders = 0;
    let body = 'one';
    const cache = new RenderCache(1000, 10, () => now);
    const make = async () => {
      renders++;
      return { body, type: 'text/plain' };
    };
    const a = (await cache.get('k', make))!;
    expect((await cache.get('k', make))!.etag).toBe(a.etag);
    expect(renders).toBe(1);
    now += 5000;
    const b = (await cache.get('k', make))!;
    expect(renders).toBe(2);
    expect(b.etag).toBe(a.etag);
    expect(b.lastModified).toEqual(a.lastModified);
    body = 'two';
    now += 5000;
    const c = (await cache.get('k', make))!;
    expect(c.etag).not.toBe(a.etag);
    expect(c.lastModified.getTime()).toBeGreaterThan(a.lastModified.getTime());
  });

  it('hands out a made result at once while it is fresh, and nothing before it is made, after its time or for a missing page', async () => {
    let now = 1_000_000;
    const cache = new RenderCache(1000, 10, () => now);
    let finish: (v: { body: string; type: string }) => void = () => {};
    const pending = cache.get('k', () => new Promise((resolve) => (finish = resolve)));
    expect(cache.fresh('k')).toBeUndefined();
    finish({ body: 'one', type: 'text/plain' });
    const made = (await pending)!;
    expect(cache.fresh('k')).toBe(made);
    now += 999;
    expect(cache.fresh('k')).toBe(made);
    now += 1;
    expect(cache.fresh('k')).toBeUndefined();
    await cache.get('gone', async () => null);
    expect(cache.fresh('gone')).toBeUndefined();
    const none = new RenderCache(0);
    await none.get('k', async () => ({ body: 'x', type: 'text/plain' }));
    expect(none.fresh('k')).toBeUndefined();
  });

  it('serves a fresh result at once (nothing to await), else once made, and null for a missing page', async () => {
    const cache = new RenderCache(1000);
    const sent: Array<string | null> = [];
    const send = (r: Rendered | null) => sent.push(r ? r.body.toString() : null);
    const first = cache.serve('k', async () => ({ body: 'one', type: 'text/plain' }), send);
    expect(first).toBeInstanceOf(Promise);
    expect(sent).toEqual([]);
    await first;
    expect(cache.serve('k', async () => ({ body: 'two', type: 'text/plain' }), send)).toBeUndefined();
    expect(sent).toEqual(['one', 'one']);
    await cache.serve('gone', async () => null, send);
    expect(sent).toEqual(['one', 'one', null]);
  });

  it('never keeps a missing page, and renders every time with a time of 0', async () => {
    let renders = 0;
    const cache = new RenderCache(1000, 10, () => 0);
    const missing = async () => {
      renders++;
      return null;
    };
    expect(await cache.get('k', missing)).toBeNull();
    await Promise.resolve();
    expect(await cache.get('k', missing)).toBeNull();
    expect(renders).toBe(2);
    const none = new RenderCache(0);
    const make = async () => {
      renders++;
      return { body: 'x', type: 'text/plain' };
    };
    await none.get('k', make);
    await none.get('k', make);
    expect(renders).toBe(4);
  });
});

describe('responses', () => {
  it('JSON with no character that could be read as markup, and the same data once parsed', () => {
    const data = { name: `</script><b>&'"` };
    const text = safeJson(data);
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)).toEqual(data);
  });

  it('compresses only as the client accepts', () => {
    expect(acceptedEncodings('gzip, deflate, br')).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings('br;q=1.0, gzip;q=0.8')).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings('gzip;q=0, br;q=0.000')).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings('identity')).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings(undefined)).toEqual({ br: false, gzip: false });
  });
});
