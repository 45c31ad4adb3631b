-- Neovim's built-in LSP client (0.7: vim.lsp.start_client) against `prompt-build lsp`:
-- opens a section, waits for the diagnostics, asks for a definition and a hover,
-- and writes what it got as JSON to $PB_OUT for the test to read.
local root, out = vim.env.PB_ROOT, vim.env.PB_OUT
local result = { attached = false }

local function finish()
  local file = io.open(out, 'w')
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  local client = vim.lsp.start_client({
    name = 'prompt-build',
    cmd = { vim.env.PB_NODE, vim.env.PB_BIN, 'lsp', '--stdio' },
    root_dir = root,
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/prompts/sections/intro.md'))
  local buf = vim.api.nvim_get_current_buf()
  result.attached = vim.lsp.buf_attach_client(buf, client)
  -- Polled with a deadline: the server builds the project first.
  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, code = d.code or lsp.code, message = d.message })
  end
  local uri = vim.uri_from_bufnr(buf)
  local definition = vim.lsp.buf_request_sync(buf, 'textDocument/definition', { textDocument = { uri = uri }, position = { line = 2, character = 5 } }, 10000)
  result.definition = definition and definition[client] and definition[client].result
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 2, character = 4 } }, 10000)
  result.hover = hover and hover[client] and hover[client].result
end)
if not ok then result.error = tostring(err) end
finish()
