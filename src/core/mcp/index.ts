export { AgentMcpSelection, DEFAULT_IDLE_MS, DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, MCP_SERVER_NAME, McpServerConfig, McpServerName, rawCredentialWarning, rawCredentials, referencedVariables } from '../config/mcp-servers.js';
export { McpCallError, McpConnection, osConfiner, type ConnectionDeps, type McpConfiner, type McpState, type McpToolInfo } from './connection.js';
export { MCP_RESTRICTED, McpManager, type AgentMcpTools, type McpCheck, type McpManagerDeps, type McpServerRow, type McpServerStatus, type McpToolRow } from './manager.js';
export { MCP_PREFIX, annotationNotes, capBytes, mcpTool, mcpToolName, parseMcpToolName, resultText, type McpTool } from './tool-adapter.js';
