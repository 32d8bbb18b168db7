import type { checkpointLabel } from '../../core/checkpoints/checkpoint-label.js';
import type { sessionMarkdown } from '../../core/runtime/session-export.js';
import type { imagesFromWebview } from './panel-images.js';
import type { searchSessions } from './session-search.js';

/**
 * What the chat needs from the core bundle, loaded on first use (activate.ts passes the bundle).
 * Named here rather than imported from core-loader.ts: the bundle re-exports the command handlers,
 * which reach the chat, so a direct import would close a loop.
 */
export interface ChatCore {
  checkpointLabel: typeof checkpointLabel;
  imagesFromWebview: typeof imagesFromWebview;
  searchSessions: typeof searchSessions;
  sessionMarkdown: typeof sessionMarkdown;
}
