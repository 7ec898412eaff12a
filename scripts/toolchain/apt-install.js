'use strict';
/**
 * Debian packages the e2e and queue runs need (chromium, redis-server, postgresql), installed
 * with apt-get when missing: directly as root, through `sudo -n` as an unprivileged user with
 * passwordless sudo (GitHub's hosted runners), else a clear error saying what to install.
 */
const { spawnSync } = require('node:child_process');
const rt = require('./run-command');

const isRoot = () => process.getuid?.() === 0;
/** True when `sudo` exists and runs without asking for a password. */
const canSudo = () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

/** How apt-get can run here: [] as root, ['sudo', '-n', ...] with passwordless sudo, else undefined. */
function rootPrefix() {
	if (isRoot()) return [];
	if (canSudo()) return ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'];
	return undefined;
}

/** Installs the missing `packages` with apt-get (root or passwordless sudo); `label` prefixes progress lines. */
async function aptInstall(packages, { label = '[apt]', noRecommends = false } = {}) {
	const prefix = rootPrefix();
	if (!prefix)
		throw new Error(
			`${packages.join(' and ')} missing: install Debian's packages with \`sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\` (or run as root or with passwordless sudo)`,
		);
	const apt = (args) => {
		const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
		return rt.run(cmd, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	};
	await rt.withProgress(
		`${label} installing Debian's ${packages.join(' and ')} (apt-get${prefix.length ? ' through sudo' : ''}, one time)...`,
		(async () => {
			await apt(['update', '-qq']);
			await apt([
				'install',
				'-y',
				'-qq',
				...(noRecommends ? ['--no-install-recommends'] : []),
				...packages,
			]);
		})(),
	);
}

module.exports = { aptInstall, rootPrefix };
