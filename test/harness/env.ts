// Runs before any test module loads: n8n reads its config from the environment when the DI
// container first resolves it, so these must be set before n8n-core is imported.
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const worker = process.env.JEST_WORKER_ID ?? '0';
const userFolder = join(__dirname, '..', '..', '.n8n-test', `worker-${worker}`);
mkdirSync(userFolder, { recursive: true });

process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_ENCRYPTION_KEY ??= 'gridbank-tests-only-encryption-key';
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = join(userFolder, 'binaryData');
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
