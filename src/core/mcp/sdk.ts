/**
 * The parts of the MCP SDK the client uses, in one module so they load together, with one
 * import() (connection.ts): most commands and turns never start an MCP server.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StdioServerTransport } from './stdio-transport.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
