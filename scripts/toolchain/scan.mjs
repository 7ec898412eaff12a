// `npm run scan`: n8n's community-package scanner (@n8n/scan-community-package), run the way n8n
// runs it on a published version, without publishing. Its CLI only scans what is on the npm
// registry (and first checks npm provenance, then fetches the attested GitHub source), so this
// calls the scanner's own analyzePackage twice, as analyzePackageByName does:
//   1. on the source tree, with the scanner's SOURCE_FILE_PATTERNS (package.json, nodes/ and
//      credentials/ .ts and .json): what the provenance-attested source checkout would be;
//   2. on the unpacked `npm pack` tarball, on its compiled .js and package.json: exactly the
//      files n8n installs. Needs `npm run build` first (dist/ is what the tarball ships).
// It also checks that the tarball holds every file package.json's "n8n" field lists, with the
// icons and codex files beside them. Exit code 0 only when everything passes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
let failed = false;

function report(label, result) {
	if (result.passed) {
		console.log(`PASS ${label}${result.message ? ` (${result.message})` : ''}`);
		return;
	}
	failed = true;
	console.log(`FAIL ${label}: ${result.message}`);
	if (result.details) console.log(result.details);
}

// 1. The source tree.
report('scanner on the source tree', await analyzePackage(root, SOURCE_FILE_PATTERNS));

// 2. The tarball npm would publish.
const compiled = pkg.n8n.nodes.concat(pkg.n8n.credentials);
const missingBuild = compiled.filter((file) => !fs.existsSync(path.join(root, file)));
if (missingBuild.length) {
	console.log(`FAIL tarball: ${missingBuild.join(', ')} missing; run \`npm run build\` first`);
	process.exit(1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gridbank-scan-'));
try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	)[0];
	const unpacked = path.join(work, 'package');
	execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work]);
	console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes`);

	// n8n loads exactly these paths; each node's icons and codex file sit beside it.
	const problems = [];
	for (const file of compiled) {
		if (!fs.existsSync(path.join(unpacked, file))) problems.push(`${file} is not in the tarball`);
	}
	for (const file of pkg.n8n.nodes) {
		const dir = path.dirname(path.join(unpacked, file));
		const codex = path.join(unpacked, file.replace(/\.js$/, '.json'));
		if (!fs.existsSync(codex))
			problems.push(`${path.relative(unpacked, codex)} (codex) is not in the tarball`);
		for (const icon of ['gridbank.svg', 'gridbank.dark.svg'])
			if (!fs.existsSync(path.join(dir, icon)))
				problems.push(`${path.relative(unpacked, dir)}/${icon} is not in the tarball`);
	}
	const stray = packed.files
		.map((f) => f.path)
		.filter((p) => /(^|\/)(test|e2e|bench|simulator)\/|\.test\.|\.tgz$/.test(p));
	for (const p of stray) problems.push(`${p} should not be published`);
	report(
		'tarball contents',
		problems.length ? { passed: false, message: problems.join('; ') } : { passed: true },
	);

	report(
		'scanner on the packed tarball',
		await analyzePackage(unpacked, ['**/*.js', 'package.json']),
	);
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}

process.exit(failed ? 1 : 0);
