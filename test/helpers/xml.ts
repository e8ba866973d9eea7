/**
 * A strict, small XML 1.0 reader for tests: it throws on anything not well-formed (unbalanced or
 * misnested tags, unquoted or repeated attributes, a bare `&` or `<` in text, unknown entities,
 * characters XML forbids, more than one root) and returns the element tree with text decoded.
 * Namespaces are kept as written (`media:thumbnail`); DTDs are refused.
 */

export interface XmlElement {
	name: string;
	attrs: Record<string, string>;
	children: Array<XmlElement | string>;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const FORBIDDEN = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: number): string {
	if (raw.includes('<')) throw new Error(`'<' in character data near ${where}`);
	return raw.replace(/&([^;]*);?/g, (whole, entity: string) => {
		if (!whole.endsWith(';')) throw new Error(`bare '&' near ${where}`);
		if (entity in NAMED) return NAMED[entity];
		const num = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(entity);
		if (!num) throw new Error(`unknown entity &${entity}; near ${where}`);
		const code = num[1] ? parseInt(num[1], 16) : Number(num[2]);
		const char = String.fromCodePoint(code);
		if (FORBIDDEN.test(char)) throw new Error(`forbidden character reference near ${where}`);
		return char;
	});
}

/** Parses a whole document. @throws Error naming the first problem and its offset */
export function parseXml(text: string): XmlElement {
	if (FORBIDDEN.test(text)) throw new Error('a character XML forbids');
	let i = 0;
	if (text.startsWith('<?xml')) {
		const end = text.indexOf('?>');
		if (end < 0) throw new Error('unterminated XML declaration');
		i = end + 2;
	}
	const stack: XmlElement[] = [];
	let root: XmlElement | null = null;
	const skipOutside = () => {
		while (i < text.length) {
			if (/\s/.test(text[i])) i++;
			else if (text.startsWith('<!--', i)) {
				const end = text.indexOf('-->', i);
				if (end < 0) fail('unterminated comment');
				i = end + 3;
			} else break;
		}
	};
	const fail = (message: string): never => {
		throw new Error(`${message} at ${i}`);
	};
	skipOutside();
	while (i < text.length) {
		if (stack.length === 0 && root) {
			skipOutside();
			if (i < text.length) fail('content after the root element');
			break;
		}
		if (text[i] !== '<') {
			if (stack.length === 0) fail('text outside the root element');
			const end = text.indexOf('<', i);
			const raw = text.slice(i, end < 0 ? text.length : end);
			stack[stack.length - 1].children.push(decode(raw, i));
			i += raw.length;
			continue;
		}
		if (text.startsWith('<!--', i)) {
			const end = text.indexOf('-->', i);
			if (end < 0) fail('unterminated comment');
			i = end + 3;
			continue;
		}
		if (text.startsWith('<![CDATA[', i)) {
			const end = text.indexOf(']]>', i);
			if (end < 0 || stack.length === 0) fail('bad CDATA section');
			stack[stack.length - 1].children.push(text.slice(i + 9, end));
			i = end + 3;
			continue;
		}
		if (text.startsWith('<!', i) || text.startsWith('<?', i)) fail('declarations and processing instructions are not expected');
		if (text[i + 1] === '/') {
			const name = NAME.exec(text.slice(i + 2))?.[0] ?? fail('bad end tag');
			const open = stack.pop() ?? fail(`end tag </${name}> without a start`);
			if (open.name !== name) fail(`</${name}> closes <${open.name}>`);
			i += 2 + name.length;
			while (/\s/.test(text[i] ?? '')) i++;
			if (text[i] !== '>') fail('bad end tag');
			i++;
			if (stack.length === 0) root = open;
			continue;
		}
		i++;
		const name = NAME.exec(text.slice(i))?.[0] ?? fail('bad start tag');
		i += name.length;
		const element: XmlElement = { name, attrs: {}, children: [] };
		for (;;) {
			const space = /^\s*/.exec(text.slice(i))![0].length;
			i += space;
			if (text.startsWith('/>', i) || text[i] === '>') break;
			if (space === 0) fail('attributes must be separated by white space');
			const attr = NAME.exec(text.slice(i))?.[0] ?? fail('bad attribute name');
			i += attr.length;
			const eq = /^\s*=\s*/.exec(text.slice(i))?.[0] ?? fail(`attribute ${attr} has no value`);
			i += eq.length;
			const quote = text[i];
			if (quote !== '"' && quote !== "'") fail(`attribute ${attr} is not quoted`);
			const end = text.indexOf(quote, i + 1);
			if (end < 0) fail('unterminated attribute value');
			if (attr in element.attrs) fail(`attribute ${attr} repeated`);
			element.attrs[attr] = decode(text.slice(i + 1, end), i);
			i = end + 1;
		}
		if (stack.length) stack[stack.length - 1].children.push(element);
		else if (root) fail('a second root element');
		if (text.startsWith('/>', i)) {
			i += 2;
			if (stack.length === 0) root = element;
		} else {
			i++;
			stack.push(element);
		}
	}
	if (stack.length) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
	if (!root) throw new Error('no root element');
	return root;
}

/** The child elements named `name`. */
export function children(element: XmlElement, name: string): XmlElement[] {
	return element.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === name);
}

/** The first child element named `name`. @throws Error when there is none */
export function child(element: XmlElement, name: string): XmlElement {
	const found = children(element, name)[0];
	if (!found) throw new Error(`<${element.name}> has no <${name}>`);
	return found;
}

/** The text of an element and its descendants. */
export function textOf(element: XmlElement): string {
	return element.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
