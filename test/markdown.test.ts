/**
 * Markdown bodies (src/model/markdown/render.ts): a body without raw HTML is written by the direct
 * renderer, which must give exactly what sanitizing markdown-it's output gives (the path of bodies
 * with raw HTML). A property test over Markdown built from GitHub's constructs and over arbitrary
 * text checks that they agree; the sanitizer's rules for links, images and attributes are exercised
 * by the pieces.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderBody, sanitizedRendering } from '../src/model/markdown/render';

const test = suite('markdown');

const PIECES = [
	'*a*',
	'**b**',
	'_c_',
	'`c`',
	'``a`b``',
	'~~s~~',
	'&amp;',
	'&lt;',
	'&quot;',
	'&copy;',
	'&#39;',
	'&#x3C;',
	'>',
	'"',
	"'",
	'\n',
	'\n\n',
	'- i\n',
	'* j\n',
	'1. n\n',
	'3. t\n',
	'1) p\n',
	'> q\n',
	'# h\n',
	'## h2 #\n',
	'h\n===\n',
	'| a | b |\n|---|:-:|\n| 1 | 2 |\n',
	'|x|\n|-:|\n|"q"|\n',
	'[l](http://x.y "t\\"q")',
	'[r](/rel)',
	'[p](//evil.com)',
	'[f](ftp://x)',
	'[j](javascript:alert(1))',
	'[d](data:text/html,x)',
	'[m](mailto:a@b.c)',
	'![i](http://x/y.png)',
	'![i](ftp://x/y.png "t")',
	'![a "b"](x.png)',
	'http://example.com',
	'https://a.b/c?d=e&f=g',
	'www.example.com',
	'a@b.co',
	'ftp://ftp.x.org',
	'```\ncode "q" & x\n```\n',
	'```js\nlet a = "b";\n```\n',
	'~~~ "x"\nz\n~~~\n',
	'    indented "q"\n',
	'word ',
	'- [ ] task\n',
	'- [x] done\n',
	'  \n',
	'\\*',
	'\\"',
	'***',
	'---\n',
	'[ref]: http://r.x "T"\n',
	'[ref]',
	'\t',
	'é',
	'\u00a0',
	'line  \nbreak',
];

const agree = (source: string) => {
	if (source.includes('<')) return true; // raw HTML: the sanitizing path itself
	return renderBody(source).html === sanitizedRendering(source).trim();
};

test('bodies without raw HTML: the direct renderer writes exactly the sanitized rendering', () => {
	fc.assert(
		fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }), (parts) => agree(parts.join(''))),
		{ numRuns: 3000 },
	);
	fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), agree), { numRuns: 2000 });
});

test('what the sanitizer would change, the direct renderer writes already', () => {
	const html = (source: string) => renderBody(source).html;
	assert.is(html('a "b"'), '<p dir="auto">a "b"</p>');
	assert.is(
		html('[f](ftp://x) [p](//evil.com) [r](/rel)'),
		'<p dir="auto"><a>f</a> <a>p</a> <a href="/rel">r</a></p>',
		'~> hrefs of other schemes dropped',
	);
	assert.is(html('3. c'), '<ol>\n<li>c</li>\n</ol>', '~> no start attribute');
	assert.match(html('| a |\n|:-:|\n| 1 |'), '<th>a</th>', '~> no style on cells');
	assert.is(
		html('- [x] done'),
		'<ul>\n<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled checked /> done</li>\n</ul>',
	);
	assert.is(html('[j](javascript:alert(1))'), '<p dir="auto">[j](javascript:alert(1))</p>', '~> markdown-it refuses the link itself');
});

test.run();
