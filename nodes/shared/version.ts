// Kept in step with package.json by test/package/package.test.ts; nodes may not read package.json at run time.
export const PACKAGE_VERSION = '0.1.0';
export const USER_AGENT = `n8n-nodes-gridbank/${PACKAGE_VERSION}`;
