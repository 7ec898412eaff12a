'use strict';
/**
 * A local stand-in for Slack's Web API, reached by n8n's own Slack node the way it reaches
 * Slack: the node calls https://slack.com/api/..., n8n routes that request through the proxy
 * named in HTTPS_PROXY (n8n 2.41.1's @n8n/backend-network and n8n 1.123.81's n8n-core both read
 * HTTP(S)_PROXY / NO_PROXY for every node request), this proxy answers the CONNECT for slack.com
 * by ending TLS itself with a certificate from a local CA that n8n trusts through
 * NODE_EXTRA_CA_CERTS, and the stand-in answers like Slack. Every other host is refused, so a
 * run never reaches the internet. The CA is made with Debian's `openssl` into `dir` at run time
 * (never committed).
 *
 *   const slack = await startSlackStandIn({ dir });
 *   spawn n8n with { ...env, ...slack.n8nEnv }; import slack.credential (type slackApi);
 *   slack.messages -> [{ channel, channelId, text, ts, body }]; await slack.close();
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');

/** The bot token the stand-in accepts unless another is given (not a Slack token). */
const DEFAULT_TOKEN = 'xoxb-0000000000-gridbank-standin-not-a-real-token';
/** Hosts the proxy terminates; every other CONNECT or plain request gets 403. */
const SLACK_HOSTS = new Set(['slack.com', 'www.slack.com']);
/** Slack bodies are small; a larger one is refused rather than buffered. */
const MAX_BODY_BYTES = 1024 * 1024;

function openssl(args, cwd) {
	execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA and a slack.com certificate signed by it, made once per `dir` and reused. */
function ensureCertificates(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const files = {
		caCert: path.join(dir, 'ca.pem'),
		key: path.join(dir, 'slack.com-key.pem'),
		cert: path.join(dir, 'slack.com.pem'),
	};
	if (Object.values(files).every((f) => fs.existsSync(f))) return files;
	const ext = path.join(dir, 'slack.com.ext');
	fs.writeFileSync(
		ext,
		'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n' +
			'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:slack.com,DNS:*.slack.com\n',
	);
	openssl(
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'30',
			'-subj',
			'/CN=GridBank test CA (local, throwaway)',
			'-addext',
			'basicConstraints=critical,CA:TRUE',
			'-addext',
			'keyUsage=critical,keyCertSign,cRLSign',
			'-keyout',
			'ca-key.pem',
			'-out',
			'ca.pem',
		],
		dir,
	);
	openssl(
		[
			'req',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-subj',
			'/CN=slack.com',
			'-keyout',
			'slack.com-key.pem',
			'-out',
			'slack.com.csr',
		],
		dir,
	);
	openssl(
		[
			'x509',
			'-req',
			'-in',
			'slack.com.csr',
			'-CA',
			'ca.pem',
			'-CAkey',
			'ca-key.pem',
			'-CAcreateserial',
			'-days',
			'30',
			'-extfile',
			'slack.com.ext',
			'-out',
			'slack.com.pem',
		],
		dir,
	);
	return files;
}

/** Slack's `ts`: seconds with six decimals, unique per message. */
function slackTs(seq) {
	return `${Math.floor(Date.now() / 1000)}.${String(seq).padStart(6, '0')}`;
}

/** A stable Slack-like id for a channel name ('#video-masters' -> 'C…'). */
function channelIdOf(channel) {
	if (/^[CGD][A-Z0-9]{8,}$/.test(channel)) return channel;
	const name = channel.replace(/^#/, '');
	return `C${crypto.createHash('sha256').update(name).digest('hex').slice(0, 10).toUpperCase()}`;
}

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (c) => {
			size += c.length;
			if (size > MAX_BODY_BYTES) {
				reject(new Error('body too large'));
				req.destroy();
			} else chunks.push(c);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** JSON or form-encoded, as Slack's Web API accepts both; plus the query string. */
function parseParams(req, text) {
	const url = new URL(req.url, 'https://slack.com');
	const params = Object.fromEntries(url.searchParams);
	const type = String(req.headers['content-type'] ?? '');
	if (text && type.includes('application/json')) Object.assign(params, JSON.parse(text));
	else if (text) Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
	return { method: url.pathname.replace(/^\/api\//, ''), params };
}

/**
 * Starts the proxy and the stand-in. `dir` holds the CA and certificate; `token` is the bot
 * token it accepts. Resolves to { n8nEnv, token, credential, messages, requests, refused,
 * proxyUrl, caFile, close() }.
 */
async function startSlackStandIn({ dir, token = DEFAULT_TOKEN, team = 'GridBank Ops' } = {}) {
	if (!dir) throw new Error('startSlackStandIn needs { dir } for its local CA');
	const certs = ensureCertificates(dir);
	const messages = [];
	const requests = [];
	const refused = [];
	let seq = 0;

	const answer = (res, status, body) => {
		res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
		res.end(JSON.stringify(body));
	};

	const handle = async (req, res) => {
		let text;
		try {
			text = await readBody(req);
		} catch {
			return answer(res, 413, { ok: false, error: 'request_too_large' });
		}
		let parsed;
		try {
			parsed = parseParams(req, text);
		} catch {
			return answer(res, 200, { ok: false, error: 'invalid_json' });
		}
		const { method, params } = parsed;
		const authorized = req.headers.authorization === `Bearer ${token}`;
		requests.push({ method, httpMethod: req.method, authorized, params });
		// Slack answers a bad token with HTTP 200 and ok:false, as here.
		if (!req.headers.authorization) return answer(res, 200, { ok: false, error: 'not_authed' });
		if (!authorized) return answer(res, 200, { ok: false, error: 'invalid_auth' });
		const identity = { team, team_id: 'T0GRIDBANK', user: 'gridbank-bot', user_id: 'U0GRIDBOT' };
		switch (method) {
			case 'auth.test':
				return answer(res, 200, { ok: true, url: 'https://gridbank.slack.com/', ...identity });
			case 'users.profile.get':
				return answer(res, 200, { ok: true, profile: { real_name: 'GridBank bot' } });
			case 'conversations.list':
				return answer(res, 200, {
					ok: true,
					channels: [...new Set(messages.map((m) => m.channel))].map((c) => ({
						id: channelIdOf(c),
						name: c.replace(/^#/, ''),
					})),
					response_metadata: { next_cursor: '' },
				});
			case 'chat.postMessage': {
				const channel = params.channel == null ? '' : String(params.channel);
				if (!channel) return answer(res, 200, { ok: false, error: 'channel_not_found' });
				if (!params.text && !params.blocks && !params.attachments)
					return answer(res, 200, { ok: false, error: 'no_text' });
				const ts = slackTs(++seq);
				const channelId = channelIdOf(channel);
				const text = params.text == null ? '' : String(params.text);
				messages.push({ channel, channelId, text, ts, body: params });
				return answer(res, 200, {
					ok: true,
					channel: channelId,
					ts,
					message: { type: 'message', subtype: 'bot_message', text, user: 'U0GRIDBOT', ts },
				});
			}
			default:
				return answer(res, 200, { ok: false, error: 'unknown_method' });
		}
	};

	const slack = https.createServer(
		{ key: fs.readFileSync(certs.key), cert: fs.readFileSync(certs.cert) },
		(req, res) => {
			handle(req, res).catch(() => answer(res, 500, { ok: false, error: 'internal_error' }));
		},
	);

	const tunnels = new Set();
	const proxy = http.createServer((req, res) => {
		// A plain-HTTP request through the proxy: nothing of ours, never forwarded.
		refused.push(req.url);
		res.writeHead(403).end('refused by the Slack stand-in proxy\n');
	});
	proxy.on('connect', (req, socket, head) => {
		const [host, port = '443'] = String(req.url).split(':');
		if (!SLACK_HOSTS.has(host.toLowerCase()) || port !== '443') {
			refused.push(req.url);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		tunnels.add(socket);
		socket.once('close', () => tunnels.delete(socket));
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head?.length) socket.unshift(head);
		slack.emit('connection', socket);
	});
	proxy.on('clientError', (_e, socket) => socket.destroy());
	await new Promise((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(0, '127.0.0.1', resolve);
	});
	const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
	const noProxy = '127.0.0.1,localhost,::1';

	return {
		/** Add to the n8n process's environment: the proxy, loopback direct, the CA trusted. */
		n8nEnv: {
			HTTPS_PROXY: proxyUrl,
			https_proxy: proxyUrl,
			HTTP_PROXY: proxyUrl,
			http_proxy: proxyUrl,
			NO_PROXY: noProxy,
			no_proxy: noProxy,
			NODE_EXTRA_CA_CERTS: certs.caCert,
		},
		token,
		/** n8n's "Slack API" credential (Access Token = the bot token), for `import:credentials`. */
		credential: (id = 'slackStandInCred1', name = 'Slack account') => ({
			id,
			name,
			type: 'slackApi',
			data: { accessToken: token },
		}),
		messages,
		requests,
		refused,
		proxyUrl,
		caFile: certs.caCert,
		close: () =>
			new Promise((resolve) => {
				for (const socket of tunnels) socket.destroy();
				proxy.closeAllConnections();
				proxy.close(() => resolve());
			}),
	};
}

module.exports = { startSlackStandIn, DEFAULT_TOKEN };

if (require.main === module) {
	const dir = process.argv[2] || path.join(__dirname, '..', '..', '.cache', 'slack-standin');
	startSlackStandIn({ dir }).then((s) => {
		console.log(`Slack stand-in proxy at ${s.proxyUrl}; CA ${s.caFile}; token ${s.token}`);
		console.log(`n8n environment: ${JSON.stringify(s.n8nEnv)}`);
	});
}
