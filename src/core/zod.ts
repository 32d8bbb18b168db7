/**
 * zod as the core and the extension use it: zod/mini (the same zod, without the per-schema
 * methods of its full API, so schemas are cheap to build and the bundles carry only what they use),
 * with zod's own messages in English. zod/mini sets no language: without one, every message zod
 * words itself reads "Invalid input" (a config problem "models.m.base_url: Invalid URL" would lose
 * its reason). English, as zod's full API sets it when it loads, unless a language was chosen
 * already. The setting is for the whole process and is read when a value is checked; importing zod
 * from here puts it before any schema of the importer exists.
 */
import * as z from 'zod/mini';

if (!z.config().localeError) z.config(z.locales.en());

export * from 'zod/mini';
