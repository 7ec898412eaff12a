'use strict';
/**
 * The package in a running n8n (`n8n start`): both credential tests through n8n's own
 * credential-test endpoint; the trigger example published and polling; and the editor in
 * Debian's headless Chromium: our nodes in the node panel with their icons, a Partner node
 * executed from the canvas with its output shown, and both video pickers listing the simulator's
 * videos (one picked and run). Screenshots go to e2e-artifacts/.
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	openSession,
	manualTrigger,
	partner,
	enterprise,
	workflow,
	rt,
	ARTIFACTS,
	CHROMIUM,
	E2E_DIR,
	OWNER,
	TRIGGER_EXAMPLES,
	waitFor,
} = require('./helpers');
const { expectMastersInBucket, expectAnnounced } = require('./job-checks');

const EDITOR_WF = 'e2eEditorPartner';
const PICKER_WF = 'e2eEditorPickers';
/** The trigger example as shipped, not published: the README's picture of it. */
const PICTURE_WF = 'e2ePictureBackup';
const PICK = { partner: 'Download URL of a licence', enterprise: 'Get an Enterprise video' };
const [TRIGGER_EXAMPLE] = TRIGGER_EXAMPLES;

let s;
let server;
let triggerWf;

/**
 * Trigger polls seen by the simulator (the list at per_page 100; other tests list with 1 or 3).
 * The Partner picker lists at per_page 100 too: while its test runs, those count as picker lists.
 */
let triggerPolls = 0;
let pickerLists;

beforeAll(async () => {
	s = await openSession({
		onRequest: (r) => {
			if (r.target === 'api' && r.path === '/partner/v1/content' && r.query?.per_page === '100') {
				if (pickerLists) pickerLists.push(r);
				else triggerPolls++;
			}
		},
	});
	const start = manualTrigger();
	const list = partner('List licensed videos', {
		operation: 'listContent',
		returnAll: false,
		limit: 3,
	});
	const start2 = manualTrigger();
	const pickFromList = { __rl: true, mode: 'list', value: '' };
	const download = partner(PICK.partner, {
		resource: 'video',
		operation: 'getDownloadUrl',
		videoKey: pickFromList,
	});
	const getVideo = enterprise(PICK.enterprise, {
		resource: 'video',
		operation: 'get',
		videoId: pickFromList,
	});
	const workflows = [
		workflow(
			EDITOR_WF,
			'e2e: Partner node on the canvas',
			[start, list],
			[[start.name, list.name]],
		),
		workflow(
			PICKER_WF,
			'e2e: video pickers',
			[start2, download, getVideo],
			[
				[start2.name, download.name],
				[start2.name, getVideo.name],
			],
		),
	];

	// The trigger example as shipped (S3 and Slack included), except: it polls every minute
	// (n8n's shortest interval) instead of every five.
	if (fs.existsSync(path.join(rt.ROOT, 'examples', TRIGGER_EXAMPLE))) {
		triggerWf = rt.loadExample(TRIGGER_EXAMPLE);
		const trigger = triggerWf.nodes.find(
			(n) => n.type === 'n8n-nodes-gridbank.gridBankPartnerTrigger',
		);
		trigger.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
		workflows.push(triggerWf, { ...rt.loadExample(TRIGGER_EXAMPLE), id: PICTURE_WF });
	}
	await s.n8n.importWorkflows(workflows);
	if (triggerWf) await s.n8n.cli(rt.activateWorkflowArgs(triggerWf.id));
	s.simulator.clearLog();
	server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, 'n8n-server.log'),
		extraEnv: s.job.n8nEnv, // the examples' Slack node reaches the stand-in
	});
}, 240_000);

afterAll(async () => {
	await server?.stop();
	await s?.close();
});

describe("credential tests through n8n's own endpoint (POST /rest/credentials/test)", () => {
	const test1 = (type, id, apiKey) =>
		server.rest('POST', '/credentials/test', {
			credentials: { id, name: 'e2e', type, data: { apiKey, baseUrl: s.state.baseUrl } },
		});

	test('Partner: the demo key passes, a wrong key fails, and the test request is the documented one', async () => {
		s.simulator.clearLog();
		expect(await test1('gridBankPartnerApi', 'gbPartnerCredDemo', s.sim.DEMO_PARTNER_KEY)).toEqual({
			status: 'OK',
			message: expect.any(String),
		});
		// (the published trigger example polls the same endpoint meanwhile, never with per_page=1)
		const call = s.simulator.log.find((r) => r.target === 'api' && r.query.per_page === '1');
		expect(call).toEqual(
			expect.objectContaining({
				method: 'GET',
				path: '/partner/v1/content',
				query: { per_page: '1' },
			}),
		);
		expect(call.headers.authorization).toBe(`Bearer ${s.sim.DEMO_PARTNER_KEY}`);
		expect(call.headers['user-agent']).toMatch(/^n8n-nodes-gridbank\//);
		const bad = await test1('gridBankPartnerApi', 'gbPartnerCredDemo', 'apik_demo.wrong-secret');
		expect(bad.status).toBe('Error');
		expect(bad.message).not.toContain('wrong-secret');
	});

	test('Enterprise: the demo key passes, a wrong key fails, and the test request is the documented one', async () => {
		s.simulator.clearLog();
		expect(
			await test1('gridBankEnterpriseApi', 'gbEnterpriseCredDm', s.sim.DEMO_ENTERPRISE_KEY),
		).toEqual({ status: 'OK', message: expect.any(String) });
		const call = s.simulator.log.find((r) => r.target === 'api' && r.path.startsWith('/external/'));
		expect(call).toEqual(expect.objectContaining({ method: 'GET', path: '/external/v1/usage/me' }));
		expect(call.headers.authorization).toBe(`Bearer ${s.sim.DEMO_ENTERPRISE_KEY}`);
		const bad = await test1('gridBankEnterpriseApi', 'gbEnterpriseCredDm', 'ent_wrong_key_e2e');
		expect(bad.status).toBe('Error');
		expect(bad.message).not.toContain('ent_wrong_key_e2e');
	});
	test('Partner: a key that is not apik_<id>.<secret> fails saying what a key looks like, and nothing is sent', async () => {
		s.simulator.clearLog();
		const result = await test1('gridBankPartnerApi', 'gbPartnerCredDemo', 'ent_live_7f3a9c2b1d');
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('A Partner key looks like apik_<id>.<secret>'),
		});
		expect(result.message).not.toContain('ent_live_7f3a9c2b1d');
		// The test request is the only one with per_page=1; the published trigger example may poll meanwhile, with the demo key.
		expect(s.simulator.log.filter((r) => r.query.per_page === '1')).toEqual([]);
		expect(
			s.simulator.log.filter((r) => r.headers.authorization?.includes('ent_live_7f3a9c2b1d')),
		).toEqual([]);
	});
});

describe('the credential test never carries the key to another origin', () => {
	test('Enterprise: a redirect to another origin fails the test, and that origin receives nothing', async () => {
		s.simulator.clearLog();
		s.simulator.faults.redirectApi({ to: 'other', count: 1, path: '/external/v1/usage/me' });
		const result = await server.rest('POST', '/credentials/test', {
			credentials: {
				id: 'gbEnterpriseCredDm',
				name: 'e2e',
				type: 'gridBankEnterpriseApi',
				data: { apiKey: s.sim.DEMO_ENTERPRISE_KEY, baseUrl: s.state.baseUrl },
			},
		});
		// n8n 1.123's RoutingNode error drops the HTTP response, so its tester never reaches the
		// credential's status rules and shows its own wording; the key stays home on both.
		const said = rt.N8N_VERSION.startsWith('1.')
			? /^Request failed with status code 302$/
			: /redirected the test request to another address .*the key was not sent there/;
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(said) });
		expect(s.simulator.log.filter((r) => r.target === 'redirect')).toEqual([]);
		expect(
			s.simulator.log
				.filter((r) => r.target === 'api' && r.path === '/external/v1/usage/me')
				.map((r) => r.status),
		).toEqual([302]);
	});
});

/** The texts n8n's nodes panel shows for our nodes (test/package/nodes-panel.test.ts derives them). */
const PANEL = {
	partner:
		'List licensed videos, get their download URLs and master files, or start a workflow when a video is licensed',
	enterprise:
		'Search the GridBank catalogue and download originals, or start a workflow when new footage matching a search appears',
	trigger: 'On a newly licensed video',
};

/** Every item of the open nodes panel as the user reads it: its name and its description line. */
const panelEntries = (page) =>
	page
		.locator('[data-test-id=node-creator] [data-test-id=node-creator-item-name]')
		.evaluateAll((els) =>
			els.map((el) => {
				let box = el.parentElement;
				while (box && !box.querySelector('[data-test-id=node-creator-item-description]')) {
					if (box.querySelectorAll('[data-test-id=node-creator-item-name]').length > 1) break;
					box = box.parentElement;
				}
				const d = box?.querySelector('[data-test-id=node-creator-item-description]');
				const mine =
					d && box.querySelectorAll('[data-test-id=node-creator-item-name]').length === 1;
				return { name: el.textContent.trim(), description: mine ? d.textContent.trim() : '' };
			}),
		);

describe('the editor in headless Chromium', () => {
	let ctx;
	let page;
	const shot = (name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

	beforeAll(async () => {
		const { chromium } = require(path.join(rt.CACHE_DIR, 'node_modules', 'playwright-core'));
		const userDataDir = fs.mkdtempSync(path.join(E2E_DIR, 'chromium-'));
		ctx = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM,
			headless: true,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
			],
			viewport: { width: 1600, height: 1000 },
		});
		page = ctx.pages()[0] ?? (await ctx.newPage());
		page.setDefaultTimeout(30_000);
		await page.goto(`${server.url}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL((u) => !u.pathname.includes('signin'));
	}, 120_000);

	afterAll(async () => {
		await ctx?.close();
	});

	test('our nodes are in the node panel, with their icons loaded', async () => {
		await page.goto(`${server.url}/workflow/${EDITOR_WF}`);
		await page.waitForSelector('[data-test-id=canvas-node]');
		await page.click('[data-test-id=node-creator-plus-button]');
		await page
			.fill(
				'[data-test-id=node-creator-search-bar] input, input[data-test-id=node-creator-search-bar]',
				'GridBank',
			)
			.catch(() => page.keyboard.type('GridBank'));
		await page.waitForSelector(
			'[data-test-id=node-creator-item-name]:has-text("GridBank Enterprise")',
		);
		const names = await page
			.locator('[data-test-id=node-creator] [data-test-id=node-creator-item-name]')
			.allTextContents();
		expect(names.map((n) => n.trim())).toEqual(
			expect.arrayContaining(['GridBank Partner', 'GridBank Enterprise']),
		);
		const ourIcons = async () =>
			(
				await page.locator('[data-test-id=node-creator] img').evaluateAll((els) =>
					els.map((e) => ({
						src: e.getAttribute('src') ?? '',
						loaded: e.complete && e.naturalWidth > 0,
					})),
				)
			).filter((i) => i.src.includes('/icons/n8n-nodes-gridbank/'));
		// On a loaded machine an icon may still be arriving: wait for them, then check.
		await waitFor('our icons to load', async () => (await ourIcons()).every((i) => i.loaded), {
			timeoutMs: 20_000,
		}).catch(() => undefined);
		const ours = await ourIcons();
		expect(ours.map((i) => i.src)).toEqual(
			expect.arrayContaining([
				expect.stringContaining('GridBankPartner/gridbank'),
				expect.stringContaining('GridBankEnterprise/gridbank'),
			]),
		);
		expect(ours.every((i) => i.loaded)).toBe(true);
		await shot('1-node-panel');

		// What a user reads there: each entry described by what it does; the Partner entry,
		// which n8n merges with its trigger and describes with the trigger's description, too.
		const entries = await panelEntries(page);
		expect(entries).toEqual(
			expect.arrayContaining([
				{ name: 'GridBank Partner', description: PANEL.partner },
				{ name: 'GridBank Enterprise', description: PANEL.enterprise },
			]),
		);
		expect(entries.map((e) => e.description).join('\n')).not.toMatch(/Starts the workflow/);
		// Opened: its actions, and beneath them the trigger, named by what it waits for (n8n
		// shows an action by its name only). The trigger section may open folded: unfold it.
		await page.click('[data-test-id=node-creator-item-name]:has-text("GridBank Partner")');
		await page.waitForSelector(
			'[data-test-id=node-creator-item-name]:has-text("List licensed videos")',
		);
		const trigger = `[data-test-id=node-creator-item-name]:has-text("${PANEL.trigger}")`;
		if (!(await page.locator(trigger).isVisible()))
			await page.click('[data-test-id=node-creator-category-item]:has-text("Triggers")');
		await page.waitForSelector(trigger);
		await shot('1b-node-panel-gridbank-partner');
		const actionNames = (await panelEntries(page)).map((a) => a.name);
		expect(actionNames).toEqual(
			expect.arrayContaining([
				'List licensed videos',
				'Get a download URL for a licensed video',
				PANEL.trigger,
			]),
		);
		expect(actionNames).not.toContain('On new GridBank Partner event');
		expect(actionNames.indexOf(PANEL.trigger)).toBeGreaterThan(
			actionNames.indexOf('List licensed videos'),
		);
		await page.keyboard.press('Escape');
	});

	test('the trigger is in the trigger panel of an empty workflow, with its icon', async () => {
		await page.goto(`${server.url}/workflow/new`);
		await page.click('[data-test-id=canvas-add-button]');
		await page.keyboard.type('GridBank');
		await page.waitForSelector('[data-test-id=node-creator-item-name]:has-text("GridBank")');
		const names = (
			await page
				.locator('[data-test-id=node-creator] [data-test-id=node-creator-item-name]')
				.allTextContents()
		).map((n) => n.trim());
		await shot('2-trigger-panel');
		expect(
			names.some((n) => /GridBank Partner Trigger/.test(n)) || names.includes('GridBank Partner'),
		).toBe(true);
		if (!names.some((n) => /Trigger/.test(n))) {
			// n8n groups an app's trigger under the app: open it and look for the trigger there.
			await page.click('[data-test-id=node-creator-item-name]:has-text("GridBank Partner")');
			await page.waitForSelector(
				`[data-test-id=node-creator-item-name]:has-text("${PANEL.trigger}")`,
			);
			await shot('2b-trigger-panel-partner');
			const shown = await panelEntries(page);
			expect(shown.map((e) => e.name)).not.toContain('On new GridBank Partner event');
		}
		const icons = await page.locator('[data-test-id=node-creator] img').evaluateAll((els) =>
			els.map((e) => ({
				src: e.getAttribute('src') ?? '',
				loaded: e.complete && e.naturalWidth > 0,
			})),
		);
		expect(icons.some((i) => i.src.includes('/icons/n8n-nodes-gridbank/') && i.loaded)).toBe(true);
		await page.keyboard.press('Escape');
	});

	test('a Partner node runs from the canvas and its output shows', async () => {
		const { sim, simulator } = s;
		const expected = simulator
			.partnerLicences(sim.DEMO_PARTNER_KEY)
			.slice(0, 3)
			.map((l) => l.video_key);
		await page.goto(`${server.url}/workflow/${EDITOR_WF}`);
		const nodeOnCanvas = page.locator(
			'[data-test-id=canvas-node][data-node-name="List licensed videos"]',
		);
		await nodeOnCanvas.waitFor();
		const icon = await nodeOnCanvas.locator('img').evaluateAll((els) =>
			els.map((e) => ({
				src: e.getAttribute('src') ?? '',
				loaded: e.complete && e.naturalWidth > 0,
			})),
		);
		expect(icon.some((i) => i.src.includes('GridBankPartner/gridbank') && i.loaded)).toBe(true);
		await shot('3-canvas');
		simulator.clearLog();
		await nodeOnCanvas.dblclick();
		await page.click('[data-test-id=node-execute-button]');
		await page.waitForSelector('[data-test-id=node-run-status-success]', { timeout: 60_000 });
		const output = page.locator('[data-test-id=output-panel]');
		await output.getByText(expected[0]).first().waitFor();
		const text = await output.innerText();
		expect(text).toMatch(/3 items/);
		for (const key of expected) expect(text).toContain(key);
		await shot('4-partner-node-output');
		expect(
			simulator.log.filter((r) => r.path === '/partner/v1/content' && r.query.per_page === '3'),
		).toHaveLength(1);
	});

	test('the video pickers show videos from the simulator: Partner newest first, filtered as you type, picked and run; Enterprise by search', async () => {
		const { sim, simulator } = s;
		const licences = simulator.partnerLicences(sim.DEMO_PARTNER_KEY);
		const titled = licences.map((l) => ({
			key: l.video_key,
			text: `${simulator.getVideo(l.video_key)?.title ?? ''} ${l.video_key}`.toLowerCase(),
		}));
		// A title word the newest licence lacks, so the filtered list visibly starts elsewhere.
		const word = titled
			.slice(1, 100)
			.flatMap((t) => t.text.split(' ').slice(0, -1))
			.find((w) => w.length >= 5 && !titled[0].text.includes(w));
		const matches = titled.filter((t) => t.text.includes(word)).map((t) => t.key);
		// The open list is a popover (teleported to <body>): its search box and rows, whichever picker opened it.
		const searchBox = () => page.locator('input[data-test-id=rlc-search]:visible');
		const rows = () => page.locator('[data-test-id=rlc-item]:visible');
		const rowKeys = async () =>
			(await rows().allInnerTexts()).map((t) => t.trim().split(' · ').pop());

		await page.goto(`${server.url}/workflow/${PICKER_WF}`);
		pickerLists = [];
		try {
			// Partner: "From list" opens on the licensed library, newest licence first.
			await page.locator(`[data-test-id=canvas-node][data-node-name="${PICK.partner}"]`).dblclick();
			await page.click('[data-test-id=resource-locator-videoKey] [data-test-id=rlc-input]');
			await rows().first().waitFor();
			expect(await rows().first().innerText()).toContain(licences[0].video_key);
			expect((await rowKeys()).slice(0, 5)).toEqual(licences.slice(0, 5).map((l) => l.video_key));
			await shot('5-partner-picker');
			const list = pickerLists.find((r) => !r.query.cursor);
			expect(list).toEqual(
				expect.objectContaining({ method: 'GET', status: 200, query: { per_page: '100' } }),
			);
			expect(list.headers.authorization).toBe(`Bearer ${sim.DEMO_PARTNER_KEY}`);
			expect(list.headers['user-agent']).toMatch(/^n8n-nodes-gridbank\//);

			// Typing filters by title (the editor waits ~1 s after the last key before it asks).
			await searchBox().fill(word);
			await waitFor(`rows filtered by "${word}"`, async () => (await rowKeys())[0] === matches[0], {
				timeoutMs: 15_000,
				everyMs: 250,
			});
			const filtered = await rowKeys();
			expect(filtered).toEqual(matches.slice(0, filtered.length));
			for (const text of await rows().allInnerTexts()) expect(text.toLowerCase()).toContain(word);
			await shot('6-partner-picker-filtered');

			// Pick one and run the node: the output is that licence's download URL.
			const chosen = matches[Math.min(1, matches.length - 1)];
			await rows()
				.filter({ hasText: new RegExp(` · ${chosen.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
				.click();
			await page.click('[data-test-id=node-execute-button]');
			await page.waitForSelector('[data-test-id=node-run-status-success]', { timeout: 60_000 });
			const output = page.locator('[data-test-id=output-panel]');
			await output.getByText(chosen).first().waitFor();
			expect(await output.innerText()).toMatch(/1 item/);
			expect(
				simulator.log.some(
					(r) => r.path === `/partner/v1/videos/${chosen}/download` && r.status === 200,
				),
			).toBe(true);
			await shot('7-partner-picked-and-run');
			await page.keyboard.press('Escape');

			// Enterprise: a search API, so the list stays empty until words are typed.
			simulator.clearLog();
			await page
				.locator(`[data-test-id=canvas-node][data-node-name="${PICK.enterprise}"]`)
				.dblclick();
			await page.click('[data-test-id=resource-locator-videoId] [data-test-id=rlc-input]');
			await page.getByText('Enter a search term to show results').waitFor();
			expect(await rows().count()).toBe(0);
			expect(simulator.log.filter((r) => r.path === '/external/v1/videos/search')).toEqual([]);
			await shot('8-enterprise-picker-empty');
			await searchBox().fill('footage');
			await rows().first().waitFor({ timeout: 15_000 });
			const search = simulator.log.find((r) => r.path === '/external/v1/videos/search');
			expect(search).toEqual(
				expect.objectContaining({
					status: 200,
					query: expect.objectContaining({ q: 'footage', page: '1' }),
				}),
			);
			const res = await fetch(
				`${s.state.baseUrl}/external/v1/videos/search?q=footage&page=1&per_page=${search.query.per_page}`,
				{
					headers: {
						authorization: `Bearer ${sim.DEMO_ENTERPRISE_KEY}`,
						'user-agent': 'gridbank-e2e',
					},
				},
			);
			const expected = (await res.json()).videos.map((v) => v.id);
			expect(expected.length).toBeGreaterThan(0);
			expect((await rowKeys()).slice(0, 5)).toEqual(expected.slice(0, 5));
			await shot('9-enterprise-picker-search');
			await page.keyboard.press('Escape');
		} catch (e) {
			fs.writeFileSync(path.join(ARTIFACTS, 'pickers-failure.html'), await page.content());
			await shot('pickers-failure');
			throw e;
		} finally {
			pickerLists = undefined;
		}
	}, 120_000);

	test(`example workflow picture: ${TRIGGER_EXAMPLE} opened in the editor, every node on the canvas`, async () => {
		if (!triggerWf) throw new Error(`examples/${TRIGGER_EXAMPLE} is missing`);
		const shipped = rt.loadExample(TRIGGER_EXAMPLE);
		const file = await pictureOfWorkflow(page, server.url, { ...shipped, id: PICTURE_WF });
		const png = fs.readFileSync(file);
		expect(png.subarray(1, 4).toString()).toBe('PNG');
		expect(png.readUInt32BE(16)).toBeGreaterThan(600); // width: the canvas, not a fragment
		const names = await page
			.locator('[data-test-id=canvas-node]')
			.evaluateAll((els) => els.map((e) => e.getAttribute('data-node-name')));
		const steps = shipped.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
		expect(names).toEqual(expect.arrayContaining(steps.map((n) => n.name)));
	});
});

/**
 * The picture of the trigger example the README shows: the workflow opened in the real editor,
 * fitted to the canvas. Always into e2e-artifacts/; into docs/images/ with GRIDBANK_DOCS_IMAGES=1
 * (see e2e/README.md), so a plain e2e run leaves the tracked picture alone.
 */
const EXAMPLE_PICTURE = 'backup-to-s3-and-slack.png';
async function pictureOfWorkflow(page, url, wf) {
	await page.goto(`${url}/workflow/${wf.id}`);
	const nodes = page.locator('[data-test-id=canvas-node]');
	await nodes.first().waitFor();
	const steps = wf.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
	await waitFor('every node on the canvas', async () => (await nodes.count()) >= steps);
	const canvas = page.locator('[data-test-id=canvas-wrapper]');
	await canvas.click({ position: { x: 12, y: 120 } }); // the canvas focused, nothing selected
	await page.keyboard.press('1'); // n8n's "zoom to fit"
	await page.waitForTimeout(1000); // the zoom animation
	// One step out, so the lowest nodes' names clear the buttons cropped off below.
	await page.keyboard.press('-');
	await page.waitForTimeout(1000);
	const box = await canvas.boundingBox();
	const file = path.join(ARTIFACTS, EXAMPLE_PICTURE);
	// Without the view tabs above and the zoom buttons and Execute button below.
	await page.screenshot({
		path: file,
		clip: { x: box.x, y: box.y + 50, width: box.width, height: box.height - 120 },
	});
	if (process.env.GRIDBANK_DOCS_IMAGES === '1') {
		const dest = path.join(rt.ROOT, 'docs', 'images', EXAMPLE_PICTURE);
		fs.mkdirSync(path.dirname(dest), { recursive: true });
		fs.copyFileSync(file, dest);
	}
	return file;
}

// Last, so the minutes n8n's poll schedule takes overlap the tests above.
test('trigger example, published: emits nothing already licensed, then copies each new licence exactly once into the bucket (Copy to Storage) and tells Slack its key and SHA-256; a video that cannot be copied goes to the Slack warning', async () => {
	if (!triggerWf) throw new Error(`examples/${TRIGGER_EXAMPLE} is missing`);
	const { sim, simulator } = s;
	const staticData = async () =>
		(await server.rest('GET', `/workflows/${triggerWf.id}`)).staticData;
	const executions = async () =>
		(
			await server.rest(
				'GET',
				`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: triggerWf.id }))}`,
			)
		).results;
	const polls = () => triggerPolls;
	// n8n polled once when it activated the published workflow at start-up (then every minute).
	await waitFor('the activation poll', () => polls() >= 1, { timeoutMs: 30_000 });
	expect(await executions()).toEqual([]); // nothing already licensed was emitted

	const slackBefore = s.job.slack.messages.length;
	const fresh = simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 3);
	// The oldest of the three is refunded before its download: it comes with downloadError.
	const [refunded, ...good] = [...fresh].reverse();
	simulator.faults.partnerForbidden(
		`/videos/${encodeURIComponent(refunded)}/download`,
		'licence_refunded',
		100,
	);
	// Another file of this run may have stored the same simulator videos in the bucket: the keys
	// start free, as after a purchase, so what is there afterwards is this workflow's doing.
	for (const key of fresh) await s.job.removeObjects(`gridbank/${key}/`);
	const titles = Object.fromEntries(fresh.map((k) => [k, simulator.getVideo(k).title]));
	await waitFor(
		'the next poll to back up the new licences and post to Slack',
		() => s.job.slack.messages.length >= slackBefore + 2,
		{ timeoutMs: 150_000, everyMs: 1000 },
	);
	const stored = await expectMastersInBucket(s, good);
	const listed = (await s.job.objects()).map((o) => o.key);
	expect(listed.some((k) => k.includes(`/${refunded}/`))).toBe(false);
	const messages = s.job.slack.messages.slice(slackBefore);
	expect(messages.map((m) => m.channel)).toEqual(['#video-masters', '#video-masters']);
	const backup = messages.find((m) => m.text.includes('backed up from GridBank to S3'));
	const warning = messages.find((m) => m.text.includes('NOT backed up'));
	expect(backup.text).toContain('2 newly licensed videos backed up');
	expectAnnounced(backup.text, stored, titles, undefined, { withSha256: true });
	expect(warning.text).toContain(
		`(${refunded}): Video "${refunded}" is not licensed by this account`,
	);
	for (const k of good) expect(warning.text).not.toContain(k);
	const done = await waitFor('the execution to be recorded', async () => {
		const list = await executions();
		return list.length && list.every((e) => e.status !== 'running' && e.status !== 'new')
			? list
			: undefined;
	});
	expect(done.map((e) => [e.status, e.mode])).toEqual(done.map(() => ['success', 'trigger']));

	// What the trigger has seen is saved with the workflow (n8n saves it when a poll emits).
	const triggerName = triggerWf.nodes.find(
		(n) => n.type === 'n8n-nodes-gridbank.gridBankPartnerTrigger',
	).name;
	expect(Object.keys((await staticData()) ?? {})).toContain(`node:${triggerName}`);
	// One more scheduled poll: nothing is emitted twice.
	const before = polls();
	await waitFor('one more scheduled poll', () => polls() > before, {
		timeoutMs: 90_000,
		everyMs: 1000,
	});
	await new Promise((r) => setTimeout(r, 3000));
	expect((await executions()).length).toBe(done.length);
	// n8n 1.x has no deactivate endpoint; stopping its server (afterAll) ends the schedule.
	if (rt.N8N_MAJOR >= 2) await server.rest('POST', `/workflows/${triggerWf.id}/deactivate`, {});
}, 360_000);
