// Imported first by the benchmark: n8n reads its configuration from the environment when the
// DI container first resolves it, so these must be set before n8n-core loads (as
// test/harness/env.ts does for jest). Binary data goes to bench/tmp/ (gitignored), on the
// same disk as the raw baseline's file.
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** bench/tmp/ in the repository, whether run from bench/ or from the compiled .cache/ts/bench/. */
export const ROOT = join(
	__dirname,
	__dirname.includes(`${join('.cache', 'ts')}`) ? '../../..' : '..',
);
export const TMP = join(ROOT, 'bench', 'tmp');
/** What a full run writes and the repository keeps: bench/results/ (generated, never edited by hand). */
export const RESULTS = join(ROOT, 'bench', 'results');
export const USER_FOLDER = join(TMP, 'n8n');
export const BINARY_PATH = join(USER_FOLDER, 'binaryData');

mkdirSync(BINARY_PATH, { recursive: true });
process.env.N8N_USER_FOLDER = USER_FOLDER;
process.env.N8N_ENCRYPTION_KEY ??= 'gridbank-bench-only-encryption-key';
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = BINARY_PATH;
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
