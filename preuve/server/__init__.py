"""preuve servers: the HTTP API and web page (app), and the MCP server for agents (mcp)."""
