'use strict';
/**
 * `npm run demo`: the package's main job, end to end, in the real n8n.
 *
 * Starts the GridBank simulator, the local S3-compatible server and the Slack stand-in
 * (scripts/services/job-services.js), installs the packed package into the cached n8n (installing n8n
 * itself on the first run), imports examples/hourly-download-new-licences.json with the demo
 * credentials, and runs it as shipped, the way its hourly schedule would: list the videos
 * licensed since the last run, copy each master straight into the bucket (the Partner node's
 * Copy to Storage: no binary data in n8n, any size), post one message with n8n's Slack node. Then runs it once more, as the next hour's run,
 * which finds nothing new. Prints what landed in the bucket (read back through the S3 API,
 * checked against what GridBank served) and the message Slack received.
 */
const fs = require('node:fs');
const path = require('node:path');
const rt = require('./n8n-runtime');
const { startJobServices, BUCKET } = require('../services/job-services');

const EXAMPLE = 'hourly-download-new-licences.json';
const NEW_LICENCES = 4;

async function main() {
	const t0 = Date.now();
	const step = (label, value) => console.log(`  ${`${label} `.padEnd(20, '.')} ${value}`);
	console.log(
		'GridBank demo: "every hour, back up newly licensed videos to S3 and tell Slack", in real n8n\n',
	);

	const install = await rt.ensureN8n();
	step(
		'n8n',
		`${rt.N8N_VERSION} ${install.installed ? `installed in ${rt.fmtDuration(install.ms)}` : 'ready'} (.cache/n8n)`,
	);

	const tgz = await rt.buildAndPack({ log: () => {} });
	const sim = await rt.loadSimulator();
	const simulator = await sim.startSimulator({ port: 0 });
	const jobDir = path.join(rt.ROOT, 'demo-output');
	fs.rmSync(jobDir, { recursive: true, force: true });
	const job = await startJobServices({ dir: jobDir });
	const stop = async () => {
		await simulator.close().catch(() => {});
		await job.close().catch(() => {});
	};
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

		step('S3 bucket', `${BUCKET} on ${job.s3.endpoint} (s3rver, SigV4 verified)`);
		step('Slack', `stand-in for slack.com, reached through ${job.slack.proxyUrl}`);
		const userFolder = path.join(rt.ROOT, '.cache', 'demo', 'n8n-user');
		const n8n = await rt.createInstance({ userFolder, filesFolder: jobDir, fresh: true, tgz });
		step(
			'package',
			`${path.basename(tgz)} installed with npm into ${path.relative(rt.ROOT, userFolder)}/.n8n/nodes`,
		);

		await n8n.importCredentials([
			...rt.demoCredentials(simulator.baseUrl, sim),
			...job.credentials,
		]);
		const workflow = rt.loadExample(EXAMPLE); // as shipped
		await n8n.importWorkflows([workflow]);
		step('workflow', `examples/${EXAMPLE} imported ("${workflow.name}")`);

		console.log('\nRun 1, as the hourly schedule runs it (first run: looks back one hour)');
		const first = await n8n.execute(workflow.id, { env: job.n8nEnv });
		if (!first.ok)
			throw new Error(
				`the workflow failed: ${first.error?.message ?? 'see n8n logs'}${first.error?.description ? `\n${first.error.description}` : ''}`,
			);
		const listed = n8n.itemsOf(first, 'List new licences') ?? [];
		const copied = n8n.itemsOf(first, 'Copy master to bucket') ?? [];
		step(
			'videos listed',
			`${listed.length} (GridBank Partner: List Licensed Content, purchased after the last run)`,
		);
		for (const v of listed) console.log(`      ${v.json.video_key}  ${v.json.title ?? ''}`);
		step(
			'masters',
			`${copied.length} copied straight into the bucket (GridBank Partner: Copy to Storage)`,
		);
		const objects = await job.objects();
		step('in the bucket', `s3://${BUCKET}/ (listed through the S3 API)`);
		let allMatch = objects.length === NEW_LICENCES;
		for (const o of objects) {
			const served = copied.find((d) => d.json.key === o.key);
			const read = await job.object(o.key);
			// What landed, what the copy says it sent, and what GridBank served: one size, one SHA-256.
			const match =
				!!served &&
				read.size === served.json.size &&
				read.sha256 === served.json.sha256 &&
				read.sha256 === sim.fileSha256(served.json.video_key, served.json.size);
			allMatch &&= match;
			console.log(
				`      ${o.key.padEnd(58)} ${rt.fmtBytes(o.size).padStart(9)}  sha256 ${read.sha256.slice(0, 12)}… ${match ? 'matches what GridBank served' : 'DOES NOT MATCH'}`,
			);
		}
		step('Slack', `${job.slack.messages.length} message(s) received by the stand-in`);
		for (const m of job.slack.messages) {
			console.log(`      to ${m.channel}:`);
			for (const line of m.text.split('\n')) console.log(`        ${line}`);
		}
		step('run time', `${(first.ms / 1000).toFixed(1)} s (n8n start-up included)`);

		console.log("\nRun 2, as the next hour's run");
		const second = await n8n.execute(workflow.id, { env: job.n8nEnv });
		if (!second.ok) throw new Error(`the second run failed: ${second.error?.message}`);
		const again = n8n.itemsOf(second, 'List new licences') ?? [];
		step('videos listed', `${again.length}: nothing licensed since run 1, so nothing copied`);

		console.log(
			`\nDone in ${rt.fmtDuration(Date.now() - t0)}. The bucket's files are in ${job.s3.directory}/`,
		);
		console.log(
			'Next: `npm run dev` opens this workflow and the other examples in the n8n editor.',
		);
		if (!allMatch || job.slack.messages.length !== 1 || again.length !== 0) process.exitCode = 1;
	} finally {
		await stop();
	}
}

main().catch((err) => {
	console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
	process.exit(1);
});
