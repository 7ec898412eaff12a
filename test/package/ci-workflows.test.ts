// The GitHub workflows parse, run the checks on every push and pull request on the Node versions
// the README's version table names, call only npm scripts that exist, and the release reuses them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// `yaml` comes with the dev toolchain (n8n-core's API types depend on it): no new dependency.
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));

interface Step {
	run?: string;
	uses?: string;
	if?: string;
}
interface Job {
	uses?: string;
	needs?: string | string[];
	strategy?: { matrix?: { node?: number[] } };
	steps?: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	jobs: Record<string, Job>;
}

const ci = parse(read('.github/workflows/ci.yml')) as Workflow;
const release = parse(read('.github/workflows/release.yml')) as Workflow;

/** The Node majors of the README's "n8n versions" table (its second column). */
function readmeNodeVersions(): number[] {
	const readme = read('README.md');
	const section = readme.slice(readme.search(/^#{2,3} n8n versions/m));
	const table = section.slice(0, section.search(/\n\s*\n(?!\|)/) + 1 || undefined);
	const versions = [...table.matchAll(/^\|[^|]+\|\s*(\d+)\b/gm)].map((m) => Number(m[1]));
	return [...new Set(versions)].sort((a, b) => b - a);
}

/** Every `npm run <script>` / `npm test` and every `bash <file>` in a workflow's run steps. */
function commands(workflow: Workflow) {
	const runs = Object.values(workflow.jobs).flatMap((job) =>
		(job.steps ?? []).flatMap((step) => (step.run ? [step.run] : [])),
	);
	const scripts = runs.flatMap((run) => [
		...[...run.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]),
		...(/\bnpm (test|t)\b/.test(run) ? ['test'] : []),
	]);
	const files = runs.flatMap((run) => [...run.matchAll(/\bbash ([\w./-]+)/g)].map((m) => m[1]));
	return { runs, scripts, files };
}

test('ci.yml runs on every push to a branch, every pull request and when the release calls it', () => {
	expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
});

test('ci.yml has the checks, the test matrix, the benchmark, both e2e runs and the queue suite as their own jobs', () => {
	expect(Object.keys(ci.jobs).sort()).toEqual(
		['bench', 'checks', 'e2e', 'e2e-n8n1', 'queue', 'test'].sort(),
	);
	const checks = commands({ on: {}, jobs: { checks: ci.jobs.checks } }).scripts;
	for (const script of ['build', 'typecheck', 'lint', 'format:check', 'cloud-support', 'scan'])
		expect(checks).toContain(script);
	const scriptsOf = (job: string) => commands({ on: {}, jobs: { [job]: ci.jobs[job] } }).scripts;
	expect(scriptsOf('e2e')).toContain('test:e2e');
	expect(scriptsOf('e2e-n8n1')).toContain('test:e2e:n8n1');
	expect(scriptsOf('queue')).toContain('test:queue');
	expect(scriptsOf('bench')).toContain('bench');
});

test("the test job's Node versions are the README's version table's, each with its own test step", () => {
	const nodes = readmeNodeVersions();
	expect(nodes).toEqual([24, 22, 20]);
	const job = ci.jobs.test;
	expect([...(job.strategy?.matrix?.node ?? [])].sort((a, b) => b - a)).toEqual(nodes);
	for (const node of nodes) {
		const steps = (job.steps ?? []).filter((s) => s.if === `matrix.node == ${node}`);
		expect(steps).toHaveLength(1);
		expect(steps[0].run).toMatch(/^npm (test|run test:matrix -- [\d.]+)$/);
	}
	// The Node 24 leg is `npm test` itself; the others are legs that scripts/toolchain/test-matrix.js defines.
	const legs = read('scripts/toolchain/test-matrix.js');
	for (const step of job.steps ?? []) {
		const leg = /test:matrix -- ([\d.]+)/.exec(step.run ?? '')?.[1];
		if (leg) expect(legs).toContain(`core: '${leg}'`);
	}
});

test('every npm script and file the workflows run exists', () => {
	for (const workflow of [ci, release]) {
		const { scripts, files } = commands(workflow);
		expect(scripts.length).toBeGreaterThan(0);
		for (const script of scripts)
			expect([script, pkg.scripts[script] !== undefined]).toEqual([script, true]);
		for (const file of files) expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
	}
});

test('the release publishes only after the same CI jobs pass (ci.yml called, not a copy)', () => {
	const callers = Object.entries(release.jobs).filter(
		([, job]) => job.uses === './.github/workflows/ci.yml',
	);
	expect(callers).toHaveLength(1);
	const publish = Object.values(release.jobs).find((job) =>
		(job.steps ?? []).some((s) => s.run?.includes('npm run release')),
	);
	expect([publish?.needs].flat()).toContain(callers[0][0]);
});
