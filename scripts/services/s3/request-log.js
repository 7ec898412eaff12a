'use strict';
// Every request the server got, in arrival order, so tests can assert what a client sent where:
// { method, op, bucket, key, partNumber, uploadId, status, headers } with header names lowercased
// and kept whole (the Authorization header's Credential and Signature included: tests prove with
// them which origin got which secret). `status` is filled when the answer is sent (0: the
// connection ended without one, a reset). Tests empty it with `requests.length = 0`.
const { operationOf } = require('./operations');

function requestLog(requests) {
	return async function logRequest(ctx, next) {
		const req = ctx.request.req;
		const entry = {
			method: req.method,
			...operationOf(req.method, req.url, req.headers),
			status: undefined,
			headers: { ...req.headers },
		};
		requests.push(entry);
		ctx.res.once('close', () => {
			entry.status = !ctx.state.reset && ctx.res.headersSent ? ctx.res.statusCode : 0;
		});
		return next();
	};
}

module.exports = { requestLog };
