// The README is for users first (issue 25): what the package does, how to install it and the
// five-minute recipe on its first screen; then the node reference; short Reliability and
// Performance sections that link to docs/; repository work in CONTRIBUTING.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { homepage: string };

/** The README's `##` sections, in order, with their text. */
const sections = readme
	.split(/^## /m)
	.slice(1)
	.map((part) => ({ title: part.split('\n')[0].trim(), text: part }));
const section = (title: string) => sections.find((s) => s.title === title)?.text ?? '';
const order = sections.map((s) => s.title);

/** A first screen: what a reader sees before scrolling far (about two screens of a laptop). */
const firstScreen = readme.split('\n').slice(0, 75).join('\n');

test('the first screen says what it does, how to install it, and the recipe with its picture and import link', () => {
	const [owner, name] = new URL(pkg.homepage).pathname.split('/').filter(Boolean);
	expect(firstScreen).toMatch(/stock-video marketplace/);
	expect(firstScreen).toMatch(/Settings → Community Nodes/);
	expect(firstScreen).toMatch(/npm install n8n-nodes-gridbank/);
	expect(firstScreen).toMatch(/## Five-minute recipe: back up new licences to S3 and tell Slack/);
	expect(firstScreen).toContain('](docs/images/backup-to-s3-and-slack.png)');
	expect(firstScreen).toContain(
		`https://raw.githubusercontent.com/${owner}/${name}/main/examples/partner-trigger-backup.json`,
	);
	// The recipe copies masters straight into the bucket (issue 32), and Slack names key and SHA-256.
	expect(firstScreen).toMatch(/Copy to bucket.*Copy to Storage/);
	expect(firstScreen).toMatch(/SHA-256/);
	expect(order.slice(0, 3)).toEqual([
		'Install',
		'Five-minute recipe: back up new licences to S3 and tell Slack',
		'Try it from a clone',
	]);
});

test('"Try it from a clone" has the two commands, and repository work lives in CONTRIBUTING', () => {
	const commands = [...section('Try it from a clone').matchAll(/^(npm [^#\n]*?)\s*(#.*)?$/gm)];
	expect(commands.map((m) => m[1])).toEqual(['npm run demo', 'npm test']);
	expect(order).not.toContain('Quick start (this repository)');
	expect(readme).not.toMatch(/npm run bench -- --only=/);
	expect(readme).not.toMatch(/\| n8n \| Node\.js \| How \|/);
});

test('the node reference comes before short Reliability and Performance sections that link to docs/', () => {
	const at = (title: string) => order.indexOf(title);
	for (const title of ['Credentials', 'GridBank Partner', 'GridBank Enterprise', 'Errors']) {
		expect(at(title)).toBeGreaterThan(at('Try it from a clone'));
		expect(at(title)).toBeLessThan(at('Reliability'));
	}
	expect(at('Performance')).toBeGreaterThan(at('Reliability'));
	for (const [title, link] of [
		['Reliability', '](docs/reliability.md)'],
		['Performance', '](docs/storage-chain.md)'],
	]) {
		expect(section(title)).toContain(link);
		expect(section(title).trim().split('\n').length).toBeLessThan(20);
	}
});

test('queue mode leads with the trigger without Download File, downloading on a worker', () => {
	const firstBullet = section('Scaling with queue mode').split('\n- ')[1];
	expect(firstBullet).toMatch(/Partner Trigger without Download File/);
	expect(firstBullet).toMatch(/on a worker/);
});
