'use strict';
/**
 * `npm run demo`: the package's main job, end to end, in the real n8n.
 *
 * Starts the GridBank simulator, installs the packed package into the cached n8n (installing
 * n8n itself on the first run), imports examples/hourly-download-new-licences.json with the
 * demo Partner key, and runs it the way its hourly schedule would: list the videos licensed
 * since the last run, download each master, write it to disk. Then runs it once more, as the
 * next hour's run, which finds nothing new. Prints what happened and where the files are.
 */
const fs = require('node:fs');
const path = require('node:path');
const rt = require('./n8n-runtime');

const EXAMPLE = 'hourly-download-new-licences.json';
const NEW_LICENCES = 4;

async function main() {
	const t0 = Date.now();
	const step = (label, value) => console.log(`  ${`${label} `.padEnd(20, '.')} ${value}`);
	console.log('GridBank demo: "download newly licensed videos every hour", in real n8n\n');

	const install = await rt.ensureN8n();
	step(
		'n8n',
		`${rt.N8N_VERSION} ${install.installed ? `installed in ${rt.fmtDuration(install.ms)}` : 'ready'} (.cache/n8n)`,
	);

	const tgz = await rt.buildAndPack({ log: () => {} });
	const sim = await rt.loadSimulator();
	const simulator = await sim.startSimulator({ port: 0 });
	const stop = async () => simulator.close().catch(() => {});
	process.once('SIGINT', () => stop().then(() => process.exit(130)));
	try {
		// The simulator's seeded licences are from 2024; license a few videos "just now" so the
		// hourly run has something new, exactly as after a purchase in GridBank.
		const now = Date.now();
		const keys = [];
		for (let i = 0; i < NEW_LICENCES; i++) {
			keys.push(
				...simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 1, {
					purchasedAt: now - (5 + i * 10) * 60_000,
				}),
			);
		}
		step('simulator', `${simulator.baseUrl} (Partner demo key ${sim.DEMO_PARTNER_KEY})`);
		step(
			'new licences',
			`${keys.length} videos licensed in the last hour, beside ${simulator.partnerLicences(sim.DEMO_PARTNER_KEY).length - keys.length} older ones`,
		);

		const userFolder = path.join(rt.ROOT, '.cache', 'demo', 'n8n-user');
		const outRoot = path.join(rt.ROOT, 'demo-output');
		const videos = path.join(outRoot, 'videos');
		fs.rmSync(outRoot, { recursive: true, force: true });
		fs.mkdirSync(videos, { recursive: true });
		const n8n = await rt.createInstance({ userFolder, filesFolder: outRoot, fresh: true, tgz });
		step(
			'package',
			`${path.basename(tgz)} installed with npm into ${path.relative(rt.ROOT, userFolder)}/.n8n/nodes`,
		);

		await n8n.importCredentials(rt.demoCredentials(simulator.baseUrl, sim));
		const workflow = rt.withDownloadFolder(rt.loadExample(EXAMPLE), videos);
		await n8n.importWorkflows([workflow]);
		step('workflow', `examples/${EXAMPLE} imported ("${workflow.name}")`);

		console.log('\nRun 1, as the hourly schedule runs it (first run: looks back one hour)');
		const first = await n8n.execute(workflow.id);
		if (!first.ok)
			throw new Error(
				`the workflow failed: ${first.error?.message ?? 'see n8n logs'}${first.error?.description ? `\n${first.error.description}` : ''}`,
			);
		const listed = n8n.itemsOf(first, 'List new licences') ?? [];
		const downloaded = n8n.itemsOf(first, 'Download master') ?? [];
		const written = n8n.itemsOf(first, 'Write to disk') ?? [];
		step(
			'videos listed',
			`${listed.length} (GridBank Partner: List Licensed Content, purchased after the last run)`,
		);
		for (const v of listed) console.log(`      ${v.json.video_key}  ${v.json.title ?? ''}`);
		step(
			'files downloaded',
			`${downloaded.length} (GridBank Partner: Get Download URL, download on)`,
		);
		let total = 0;
		let allMatch = true;
		for (let i = 0; i < written.length; i++) {
			const file = written[i].json.fileName;
			const expected = downloaded[i].json.fileSize;
			const onDisk = fs.existsSync(file) ? fs.statSync(file).size : -1;
			allMatch &&= onDisk === expected;
			total += Math.max(onDisk, 0);
			console.log(
				`      ${path.basename(file).padEnd(44)} ${rt.fmtBytes(onDisk).padStart(9)}  ${downloaded[i].json.mimeType}${onDisk === expected ? '' : `  (expected ${expected} bytes!)`}`,
			);
		}
		step(
			'on disk',
			`${videos}/ (${written.length} files, ${rt.fmtBytes(total)}${allMatch ? ', every size matches' : ', SIZE MISMATCH'})`,
		);
		const slack = n8n.itemsOf(first, 'Summary for Slack')?.[0]?.json.text;
		if (slack) {
			console.log('  Slack message (the Slack node is disabled until you add a credential):');
			for (const line of slack.split('\n')) console.log(`      ${line}`);
		}
		step('run time', `${(first.ms / 1000).toFixed(1)} s (n8n start-up included)`);

		console.log("\nRun 2, as the next hour's run");
		const second = await n8n.execute(workflow.id);
		if (!second.ok) throw new Error(`the second run failed: ${second.error?.message}`);
		const again = n8n.itemsOf(second, 'List new licences') ?? [];
		step('videos listed', `${again.length}: nothing licensed since run 1, so nothing downloaded`);

		console.log(`\nDone in ${rt.fmtDuration(Date.now() - t0)}. The files are in ${videos}/`);
		console.log(
			'Next: `npm run dev` opens this workflow and the other examples in the n8n editor.',
		);
		if (!allMatch || written.length !== NEW_LICENCES || again.length !== 0) process.exitCode = 1;
	} finally {
		await stop();
	}
}

main().catch((err) => {
	console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
	process.exit(1);
});
