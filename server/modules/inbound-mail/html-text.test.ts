import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from './html-text.ts';

describe('htmlToText', () => {
  it.each([
    ['<p>Hello <b>world</b></p><p>Second</p>', 'Hello world\n\nSecond'],
    ['line one<br>line two<br/>line three', 'line one\nline two\nline three'],
    ['<html><head><title>Title</title><style>p { color: red }</style></head><body>Body</body></html>', 'Body'],
    ['before<script>alert("<p>x</p>")</script>after', 'beforeafter'],
    ['<SCRIPT type="text/javascript">x</SCRIPT>shown', 'shown'],
    ['a<!-- hidden <p> -->b', 'ab'],
    ['<!DOCTYPE html><?xml version="1.0"?>text', 'text'],
    ['<ul><li>one</li><li>two</ul>', '- one\n- two'],
    ['<table><tr><th>Job</th><th>Status</th></tr><tr><td>Nightly</td><td>Failed</td></tr></table>', 'Job  Status\n\nNightly  Failed'],
    ['<a href="https://console.example/job?id=1&amp;x=2">Open</a>', 'Open (https://console.example/job?id=1&x=2)'],
    ['<a href="javascript:alert(1)">click</a>', 'click'],
    ['<a href=\'mailto:x@y\'>mail</a>', 'mail'],
    ['<div title="a > b">inside</div>', 'inside'],
    ["<div class=it's>after</div>", 'after'],
    ['Tom &amp; Jerry &lt;3 &#169; &#x1F600; &unknown; &nbsp;end', 'Tom & Jerry <3 © 😀 &unknown;  end'],
    ['  lots\n\n   of \t whitespace  ', 'lots of whitespace'],
    ['a < b and c > d', 'a < b and c > d'],
    ['text <b unclosed', 'text'],
    ['<pre>keep\nlines</pre>', 'keep\nlines'],
    ['<hr>', '----------'],
    ['', ''],
  ])('%j → %j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('stops at maxChars', () => {
    const text = htmlToText(`<p>${'x'.repeat(1000)}</p>`, 100);
    expect(text.length).toBeGreaterThan(90);
    expect(text.length).toBeLessThanOrEqual(100);
  });

  it('takes linear time on hostile input (unclosed tags, comments and scripts by the ten thousand)', () => {
    for (const hostile of ['<a '.repeat(200_000), '<!--'.repeat(200_000), '<script'.repeat(100_000), `<a href="${'x'.repeat(500_000)}`, '<'.repeat(500_000)]) {
      const started = performance.now();
      htmlToText(hostile);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe('decodeEntities', () => {
  it.each([
    ['&amp;&lt;&gt;&quot;&apos;', '&<>"\''],
    ['&#65;&#x42;', 'AB'],
    ['&#0; &#xD800; &#99999999;', '\ufffd \ufffd &#99999999;'],
    ['&AMP; stays upper-cased? no: &AMP;', '& stays upper-cased? no: &'],
    ['no entities', 'no entities'],
  ])('%j → %j', (s, decoded) => {
    expect(decodeEntities(s)).toBe(decoded);
  });
});
