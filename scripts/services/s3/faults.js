'use strict';
// Fault switches for the tests: a rule makes the next matching request(s) fail the way stores and
// networks fail, so a client's retries, waits and clean-up can be proven against real HTTP.
// rule = { op, partNumber?, times? (default 1), status?, code?, retryAfter?, reset?, delayMs?, stallMs? }
//   status/code/retryAfter: answer with that status and an S3 XML error (body read first, as S3 does)
//   reset: destroy the connection after reading about half the request body
//   stallMs: stop reading the request body for that long halfway, then carry on normally
//   delayMs: handle the request normally, then hold the answer that long (less if the client goes away)
// Several effects may be combined (a stall then an error). Every request a rule hit is in
// `hits` as { op, partNumber, status } (status: what the client got, 0 for a reset).
const { Readable } = require('node:stream');
const { setTimeout: sleep } = require('node:timers/promises');
const { operationOf, errorXml } = require('./operations');

const OPS = new Set([
	'CreateMultipartUpload',
	'UploadPart',
	'CompleteMultipartUpload',
	'AbortMultipartUpload',
	'PutObject',
	'HeadObject',
	'ListMultipartUploads',
	'ListParts',
	'GetObject',
]);

function createFaults() {
	const rules = [];
	const hits = [];
	return {
		hits,
		add(rule) {
			if (!OPS.has(rule?.op)) throw new Error(`faults.add: unknown op ${rule?.op}`);
			rules.push({ ...rule, left: rule.times ?? 1 });
		},
		clear() {
			rules.length = 0;
		},
		/** The rule this request hits (counted), or undefined. */
		take(op, partNumber) {
			const rule = rules.find(
				(r) =>
					r.left > 0 && r.op === op && (r.partNumber === undefined || r.partNumber === partNumber),
			);
			if (rule) rule.left--;
			return rule;
		},
		middleware() {
			const take = this.take.bind(this);
			return async function injectFaults(ctx, next) {
				const req = ctx.request.req;
				const { op, partNumber } = operationOf(req.method, req.url, req.headers);
				const rule = take(op, partNumber);
				if (!rule) return next();
				const hit = { op, partNumber, status: undefined };
				hits.push(hit);
				ctx.res.once('close', () => {
					hit.status = !rule.reset && ctx.res.headersSent ? ctx.res.statusCode : 0;
				});
				const length = Number(req.headers['content-length'] || 0);
				if (rule.reset) {
					ctx.state.reset = true; // the request log's status 0
					await readAbout(req, Math.floor(length / 2));
					ctx.respond = false;
					req.socket.destroy();
					return;
				}
				if (rule.stallMs) ctx.req = stallHalfway(ctx.req, Math.floor(length / 2), rule.stallMs);
				if (rule.status) {
					for await (const chunk of ctx.req) void chunk; // read the body, as S3 does
					if (rule.delayMs) await hold(ctx, rule.delayMs);
					ctx.status = rule.status;
					if (rule.retryAfter !== undefined) ctx.set('Retry-After', String(rule.retryAfter));
					ctx.type = 'application/xml';
					ctx.body = errorXml(rule.code ?? defaultCode(rule.status), `Injected fault (${op}).`);
					return;
				}
				await next();
				if (rule.delayMs) await hold(ctx, rule.delayMs);
			};
		},
	};
}

/** Waits `ms` before answering, or until the client goes away (a killed n8n): a held answer must not keep the test process alive. */
async function hold(ctx, ms) {
	const gone = new AbortController();
	const onClose = () => gone.abort();
	ctx.res.once('close', onClose);
	await sleep(ms, undefined, { signal: gone.signal }).catch(() => undefined);
	ctx.res.off('close', onClose);
}

const defaultCode = (status) =>
	({ 500: 'InternalError', 503: 'SlowDown', 403: 'AccessDenied', 404: 'NoSuchKey' })[status] ??
	'InvalidRequest';

/** Reads and drops about `bytes` bytes of the body (at least one chunk). */
async function readAbout(req, bytes) {
	let seen = 0;
	for await (const chunk of req) {
		seen += chunk.length;
		if (seen >= bytes) return;
	}
}

/** The body as a stream that stops reading from the socket for `ms` once `at` bytes have passed. */
function stallHalfway(body, at, ms) {
	return Readable.from(
		(async function* () {
			let seen = 0;
			let stalled = false;
			for await (const chunk of body) {
				if (!stalled && seen + chunk.length >= at) {
					const head = at - seen;
					yield chunk.subarray(0, head);
					stalled = true;
					await sleep(ms);
					yield chunk.subarray(head);
				} else yield chunk;
				seen += chunk.length;
			}
		})(),
		{ objectMode: false },
	);
}

module.exports = { createFaults };
