// Finds the repository paths a hand-written doc names that do not exist, so docs cannot drift
// from the tree (test/package/doc-paths.test.ts; the rules are in CONTRIBUTING "Docs that match
// the code"). Pure: the caller says which files exist and which locations are generated.
import { posix } from 'node:path';

/** What the checker needs to know about the repository. */
export interface RepoView {
	/** Top-level names of the repository (`nodes`, `test`, `.ci`, `package.json`, …). */
	topLevel: Set<string>;
	/** Does this repo-relative path (file or folder) exist? */
	exists(path: string): boolean;
	/** Is there a file of this name anywhere in the repository? */
	hasFileNamed(name: string): boolean;
	/** Is this repo-relative path one the build or the tools create (.gitignore)? */
	isGenerated(path: string): boolean;
	/** Headings' anchors of a markdown file of the repository, or undefined if unreadable. */
	anchorsOf(path: string): Set<string> | undefined;
	/** package.json's script names. */
	scripts: Set<string>;
}

export interface BrokenPath {
	doc: string;
	line: number;
	text: string;
	reason: string;
}

/** The repository's own addresses on GitHub (package.json's homepage), read as repo paths. */
const OWN_URL =
	/^https:\/\/(?:github\.com\/gridbank\/n8n-nodes-gridbank\/(?:blob|tree|raw)\/[^/]+|raw\.githubusercontent\.com\/gridbank\/n8n-nodes-gridbank\/[^/]+)\/([^#?]+)/;
/** A bare file name worth checking: a stem and an extension this repository uses. */
const FILE_NAME = /^[A-Za-z0-9_][\w.-]*\.(?:ts|js|mjs|json|md|yml|yaml|png|sh)$/;
/** Characters that make a code span a template, a glob, a command or prose, not a path. */
const NOT_A_PATH = /[\s<>*{}$…|:=,;'"`()[\]@]/;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every heading anchor of a markdown text (repeats get -1, -2 … as on GitHub). */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const line of withoutFences(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const base = slug(heading[1].replace(/`/g, ''));
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/** The lines of a markdown text with fenced code blocks blanked (commands, trees, samples). */
function withoutFences(markdown: string): string[] {
	return splitFences(markdown).map(({ line, fenced }) => (fenced ? '' : line));
}

function splitFences(markdown: string): { line: string; fenced: boolean }[] {
	let fenced = false;
	return markdown.split('\n').map((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return { line: '', fenced: true };
		}
		return { line, fenced };
	});
}

/** A code span that names a path of this repository, normalised, or undefined. */
export function pathOfSpan(span: string, repo: RepoView): string | undefined {
	const text = span.replace(/^\.\//, '').replace(/#.*$/, '');
	if (!text || NOT_A_PATH.test(text) || /^[/~.-]*$/.test(text)) return undefined;
	if (text.startsWith('/') || text.startsWith('~') || text.startsWith('-')) return undefined;
	if (text.includes('/')) return repo.topLevel.has(text.split('/')[0]) ? text : undefined;
	return FILE_NAME.test(text) ? text : undefined;
}

function checkSpan(span: string, repo: RepoView): string | undefined {
	const path = pathOfSpan(span, repo);
	if (!path || repo.isGenerated(path)) return undefined;
	if (!path.includes('/')) {
		return repo.hasFileNamed(path) ? undefined : 'no file of this name in the repository';
	}
	return repo.exists(path.replace(/\/$/, '')) ? undefined : 'no such file or folder';
}

function checkLink(doc: string, target: string, repo: RepoView): string | undefined {
	const own = OWN_URL.exec(target);
	if (!own && /^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
	const [pathPart, anchor] = (own ? own[1] : target).split('#');
	const path = own
		? pathPart
		: pathPart
			? posix.normalize(posix.join(posix.dirname(doc), pathPart.split('?')[0]))
			: doc;
	if (path.startsWith('..')) return 'points outside the repository';
	if (repo.isGenerated(path)) return undefined;
	if (!repo.exists(path.replace(/\/$/, ''))) return 'no such file or folder';
	if (anchor === undefined || !path.endsWith('.md')) return undefined;
	const known = repo.anchorsOf(path);
	return known && !known.has(anchor) ? `no heading #${anchor} in ${path}` : undefined;
}

/**
 * Every path a doc names that does not exist, with its line: code spans and links in the prose;
 * in code blocks (commands, trees), words that start with a top-level folder and hold a `/`;
 * anywhere, an `npm run <script>` that package.json does not have.
 */
export function brokenPaths(doc: string, markdown: string, repo: RepoView): BrokenPath[] {
	const broken: BrokenPath[] = [];
	splitFences(markdown).forEach(({ line, fenced }, index) => {
		const report = (text: string, reason: string | undefined) => {
			if (reason) broken.push({ doc, line: index + 1, text, reason });
		};
		for (const [command, script] of line.matchAll(/npm run ([\w:-]+)/g)) {
			if (!repo.scripts.has(script)) report(command, 'no such script in package.json');
		}
		if (fenced) {
			for (const word of line.split(/\s+/).filter((w) => w.includes('/'))) {
				report(word, checkSpan(word, repo));
			}
			return;
		}
		const prose = line.replace(/`[^`]*`/g, '``');
		for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			report(target, checkLink(doc, target, repo));
		}
		for (const [, span] of line.matchAll(/`([^`]+)`/g)) report(span, checkSpan(span, repo));
	});
	return broken;
}
