import type { de } from './de';
import { app } from './en/app';
import { consents } from './en/consents';
import { errors } from './en/errors';
import { overview } from './en/overview';
import { settings } from './en/settings';

/** The admin area's English texts: every key of the German ones, by area as in de/. */
export const en: typeof de = { ...app, errors, ...overview, ...consents, ...settings };
