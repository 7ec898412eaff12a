'use strict';
/**
 * Shared by `npm run test:queue` and `npm run bench -- --queue`: readers for what n8n stored in
 * Postgres (executions, their data, binary files) and the pacing measurement; the workflows the
 * cluster runs are in queue-workflows.js, re-exported here.
 */
const path = require('node:path');
const rt = require('../n8n/n8n-runtime');
const wf = require('./queue-workflows');

const { PACING_WF, PACING_PATH } = wf;

/** POST to a production webhook of the main; resolves with {status, body} (bounded). */
async function postWebhook(cluster, p, body, timeoutMs = 300_000) {
	const res = await fetch(`${cluster.main.url}/webhook/${p}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	const { text, json } = await rt.readJson(res);
	return { status: res.status, body: json ?? text };
}

/** Executions of a workflow, oldest first: [{id, status, mode}]. */
async function executions(cluster, workflowId) {
	const rows = await cluster.sql(
		`SELECT id, status, mode FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`,
	);
	return rows.map(([id, status, mode]) => ({ id, status, mode }));
}

/** An execution's run data, parsed the way n8n stores it (flatted). */
async function executionData(cluster, id) {
	const { parse } = require(path.join(rt.CACHE_DIR, 'node_modules', 'flatted'));
	const rows = await cluster.sql(
		`SELECT data FROM execution_data WHERE "executionId" = ${Number(id)}`,
	);
	return rows.length ? parse(rows[0][0]) : undefined;
}

/** Binary files n8n keeps in Postgres for an execution: [{fileName, size, sha256}], empty probes left out. */
async function binaries(cluster, executionId) {
	const rows = await cluster.sql(
		`SELECT "fileName", "fileSize", encode(sha256(data), 'hex') FROM binary_data WHERE "sourceId" = '${Number(executionId)}' AND "fileSize" > 0 ORDER BY "fileName"`,
	);
	return rows.map(([fileName, size, sha256]) => ({ fileName, size: Number(size), sha256 }));
}

/**
 * The files an execution's items point at (binary id "database:<fileId>"), whatever source n8n
 * filed them under: [{fileName, size, sha256}] in item order.
 */
async function referencedFiles(cluster, items, property) {
	const out = [];
	for (const item of items) {
		const id = item.binary?.[property]?.id ?? '';
		const fileId = /^database:([0-9a-f-]{36})$/.exec(id)?.[1];
		if (!fileId) {
			out.push({ missing: id || 'no binary id' });
			continue;
		}
		const [row] = await cluster.sql(
			`SELECT "fileName", "fileSize", encode(sha256(data), 'hex') FROM binary_data WHERE "fileId" = '${fileId}'`,
		);
		out.push(row ? { fileName: row[0], size: Number(row[1]), sha256: row[2] } : { missing: id });
	}
	return out;
}

/** Waits for `check` to return something truthy; bounded. */
async function waitFor(label, check, { timeoutMs = 120_000, everyMs = 1000 } = {}) {
	const started = Date.now();
	for (;;) {
		const v = await check();
		if (v) return v;
		if (Date.now() - started > timeoutMs)
			throw new Error(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${label}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

/** The most requests any window of `windowMs` holds, from a sorted list of arrival times. */
function peakInWindow(times, windowMs) {
	let peak = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] >= windowMs) j++;
		peak = Math.max(peak, i - j + 1);
	}
	return peak;
}

/** Mean requests per window over windows [start, start + windowMs) from the first to the last request (5 ms steps). */
function meanPerWindow(times, windowMs, stepMs = 5) {
	if (!times.length) return 0;
	const last = times[times.length - 1];
	let sum = 0;
	let windows = 0;
	for (let start = times[0], lo = 0, hi = 0; start + windowMs <= last + 1; start += stepMs) {
		while (lo < times.length && times[lo] < start) lo++;
		while (hi < times.length && times[hi] < start + windowMs) hi++;
		sum += hi - lo;
		windows++;
	}
	return windows ? sum / windows : times.length;
}

/**
 * Three workflows at once on one key, one per process: two started by webhook (queue mode
 * sends them to the workers) and one run by hand (n8n runs manual executions on the main).
 * Each lists `n` licences then asks a download URL for each. `pacingSim` is the simulator the
 * pacing credential points at, with its rate window (`limit` per `windowMs`).
 */
async function measurePacing(cluster, pacingSim, { n, limit, windowMs }) {
	pacingSim.clearLog();
	const before = new Set((await executions(cluster, PACING_WF)).map((e) => e.id));
	const started = Date.now();
	const hooks = [
		postWebhook(cluster, PACING_PATH, { from: 'worker' }),
		postWebhook(cluster, PACING_PATH, { from: 'worker' }),
	];
	const manual = await cluster.main.rest('POST', `/workflows/${PACING_WF}/run`, {
		triggerToStartFrom: { name: 'Start' },
	});
	await Promise.all(hooks);
	const runs = await waitFor(
		'three pacing executions to finish',
		async () => {
			const list = (await executions(cluster, PACING_WF)).filter((e) => !before.has(e.id));
			return list.length === 3 &&
				list.every((e) => !['new', 'running', 'waiting'].includes(e.status))
				? list
				: undefined;
		},
		{ timeoutMs: 15 * 60_000, everyMs: 1000 },
	);
	const ms = Date.now() - started;
	const workerOf = cluster.workerOf();
	const perRun = [];
	for (const e of runs) {
		const data = await executionData(cluster, e.id);
		const out = data?.resultData?.runData?.URLs?.[0]?.data?.main?.[0] ?? [];
		const keys = out.map((i) => i.json.video_key);
		perRun.push({
			id: e.id,
			status: e.status,
			process: String(e.id) === String(manual.executionId) ? 'main' : (workerOf[e.id] ?? 'unknown'),
			items: out.length,
			distinctKeys: new Set(keys).size,
			withUrl: out.filter((i) => typeof i.json.url === 'string' && i.json.url.startsWith('http'))
				.length,
		});
	}
	const api = pacingSim.log.filter((l) => l.target === 'api');
	const accepted = api
		.filter((l) => l.status === 200)
		.map((l) => l.at)
		.sort((a, b) => a - b);
	const refused = api.filter((l) => l.status === 429).length;
	const span = accepted.length ? accepted[accepted.length - 1] - accepted[0] : 0;
	return {
		n,
		limit,
		windowMs,
		ms,
		runs: perRun,
		requests: api.length,
		accepted: accepted.length,
		refused,
		peakInWindow: peakInWindow(accepted, windowMs),
		spanMs: span,
		// As the in-process benchmark counts it: the mean number of requests in a window of the
		// limit's length, over every such window between the first and the last request, / limit.
		share: meanPerWindow(accepted, windowMs) / limit,
	};
}

module.exports = {
	measurePacing,
	...wf,
	postWebhook,
	executions,
	executionData,
	binaries,
	referencedFiles,
	waitFor,
};
