/**
 * Word lists the seeded catalogue is built from. Searching any of these words finds videos.
 * Every seeded video also carries the keyword `footage`, so `q=footage` matches the whole
 * seeded catalogue (enough results to reach the Enterprise API's page 100).
 * None of these lists contains words such as "zebraquartz": tests that add their own
 * videos with such words can make a query match exactly N videos.
 */

export const ADJECTIVES = [
	'golden', 'misty', 'vibrant', 'quiet', 'busy', 'ancient', 'modern', 'frozen', 'sunny', 'stormy',
	'colorful', 'serene', 'dramatic', 'rustic', 'urban', 'tropical', 'snowy', 'dusty', 'neon', 'peaceful',
] as const;

export const SUBJECTS = [
	'ocean', 'forest', 'mountain', 'city', 'river', 'desert', 'beach', 'waterfall', 'skyline', 'street',
	'market', 'harbor', 'bridge', 'meadow', 'glacier', 'volcano', 'vineyard', 'canyon', 'lake', 'island',
	'train', 'airplane', 'bicycle', 'horse', 'eagle', 'dolphin', 'coffee', 'kitchen', 'office', 'laboratory',
	'dancer', 'surfer', 'runner', 'chef', 'farmer', 'musician', 'drone', 'robot', 'satellite', 'lighthouse',
] as const;

export const SETTINGS = [
	'at sunset', 'at sunrise', 'at night', 'in the rain', 'in winter', 'in autumn', 'from above',
	'in slow motion', 'timelapse', 'close up', 'in fog', 'under the stars', 'in spring', 'at dusk',
] as const;

export const EXTRA_KEYWORDS = [
	'aerial', 'cinematic', 'nature', 'travel', 'people', 'business', 'technology', 'landscape', 'water',
	'sky', 'clouds', 'light', 'motion', 'background', 'lifestyle', 'sport', 'wildlife', 'architecture',
	'food', 'abstract', 'closeup', 'handheld', 'steadicam', 'gimbal',
] as const;

export const THEMES = [
	'nature', 'city', 'people', 'business', 'technology', 'food', 'travel', 'sports', 'abstract', 'animals',
] as const;

export const FIRST_NAMES = [
	'Ana', 'Bruno', 'Chen', 'Dalia', 'Emeka', 'Freya', 'Goran', 'Hana', 'Ines', 'Jonas', 'Kofi', 'Lena',
	'Mateo', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Yara', 'Zoe',
] as const;

export const LAST_NAMES = [
	'Almeida', 'Berg', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen',
	'Kowalski', 'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Rossi', 'Silva', 'Tanaka', 'Weber',
] as const;

export const LOCATIONS: ReadonlyArray<{ city: string; region: string; country: string }> = [
	{ city: 'Lisbon', region: '11', country: 'Portugal' },
	{ city: 'Denver', region: 'CO', country: 'United States' },
	{ city: 'Vancouver', region: 'BC', country: 'Canada' },
	{ city: 'Kyoto', region: '26', country: 'Japan' },
	{ city: 'Cape Town', region: 'WC', country: 'South Africa' },
	{ city: 'Reykjavik', region: '1', country: 'Iceland' },
	{ city: 'Sydney', region: 'NSW', country: 'Australia' },
	{ city: 'Marseille', region: 'PAC', country: 'France' },
	{ city: 'Austin', region: 'TX', country: 'United States' },
	{ city: 'Bergen', region: '46', country: 'Norway' },
	{ city: 'Cusco', region: 'CUS', country: 'Peru' },
	{ city: 'Munich', region: 'BY', country: 'Germany' },
];

export const RESOLUTIONS: ReadonlyArray<[number, number]> = [
	[1920, 1080],
	[3840, 2160],
	[1280, 720],
	[4096, 2160],
	[1080, 1920],
	[2560, 1440],
];
