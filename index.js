// n8n loads the nodes and credentials listed in package.json "n8n"; this entry point exports nothing.
module.exports = {};
