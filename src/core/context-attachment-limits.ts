/**
 * The limits of what a turn may carry as attached context: a leaf, so the extension's light
 * activation bundle can use them without loading the schemas (context-attachments.ts).
 */
export const ATTACHMENT_KINDS = ['file', 'folder', 'selection', 'problems', 'terminal'] as const;
export const MAX_ATTACHMENT_CHARS = 100_000;
export const MAX_ATTACHMENTS = 20;
