import { app } from './de/app';
import { consents } from './de/consents';
import { errors } from './de/errors';
import { overview } from './de/overview';
import { settings } from './de/settings';

/**
 * The admin area's German texts (the first language), one object; de/ holds them by area, each
 * mirrored by en/ with the same keys.
 */
export const de = { ...app, errors, ...overview, ...consents, ...settings };
