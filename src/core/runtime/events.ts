/** The turn's event vocabulary lives in the leaf module core/events.ts; kept here for existing importers. */
export * from '../events.js';
