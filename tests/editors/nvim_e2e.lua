-- Real-Neovim end-to-end test of editors/nvim: run as
--   nvim -l tests/editors/nvim_e2e.lua REPO_ROOT PROJECT_DIR KB_DIR RELATEX_EXE
-- PROJECT_DIR is a scratch copy of examples/demo; KB_DIR an empty data folder: the knowledge base
-- is built from the editor ("Build knowledge base from this project") before the rest is checked.
local repo, project, kb, exe = arg[1], arg[2], arg[3], arg[4]
local failures = 0
local function check(cond, what)
  if cond then
    io.stdout:write("ok   " .. what .. "\n")
  else
    failures = failures + 1
    io.stdout:write("FAIL " .. what .. "\n")
  end
end
local function finish()
  for _, client in ipairs(vim.lsp.get_clients()) do client:stop(true) end
  vim.wait(2000, function() return #vim.lsp.get_clients() == 0 end, 50)
  io.stdout:write(string.format("%d failed\n", failures))
  os.exit(failures == 0 and 0 or 1)
end

vim.opt.runtimepath:prepend(repo .. "/editors/nvim")
vim.cmd("filetype on")
local relatex = require("relatex")
relatex.setup({
  cmd = { exe, "serve" },
  root_markers = { "main.tex" },
  settings = { relatex = { knowledgeBase = { dataDir = kb }, debounceMs = 50 } },
  init_options = { knowledgeBase = { dataDir = kb }, debounceMs = 50 },
})

local main = project .. "/main.tex"
vim.cmd("edit " .. vim.fn.fnameescape(main))
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype == "" then vim.bo[buf].filetype = "tex" end
check(vim.wait(20000, function() return relatex.client(buf) ~= nil end, 50), "server attached")
local client = relatex.client(buf)
if not client then finish() end
check(vim.wait(20000, function() return client.initialized end, 50), "server initialized")

-- setup() turned on Neovim's own LSP completion, popping up as the user types.
local ok_autocmds, autocmds = pcall(vim.api.nvim_get_autocmds,
  { group = "nvim.lsp.completion_" .. buf, event = "InsertCharPre", buffer = buf })
check(ok_autocmds and #autocmds > 0, "vim.lsp.completion enabled with autotrigger")

-- No knowledge base yet: the editor offers to build one from the project, as a code action.
local function status()
  local reply = client:request_sync("workspace/executeCommand",
    { command = "relatex.knowledgeBaseStatus", arguments = {} }, 20000, buf)
  return reply and reply.result or {}
end
check(status().exists == false, "status: no knowledge base in the clean data folder")
local build
vim.wait(20000, function()
  local reply = client:request_sync("textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } },
    context = { diagnostics = {}, only = { "source" } },
  }, 20000, buf)
  for _, a in ipairs(reply and reply.result or {}) do
    if a.title == "Build knowledge base from this project" then build = a end
  end
  return build ~= nil
end, 200)
check(build ~= nil, "Build knowledge base from this project offered as a code action")
if build then
  client:exec_cmd(build.command, { bufnr = buf })
  check(vim.wait(180000, function() return status().loaded == true end, 500), "knowledge base built and loaded")
  local st = status()
  io.stdout:write("status: " .. tostring(st.text) .. "\n")
  check((st.records or 0) >= 41, "knowledge base holds the project's papers")
end

-- Hover on the first citation key of the document.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local cite_line, cite_col
for i, line in ipairs(lines) do
  local s = line:find("\\cite[tp]?{")
  if s and not line:match("^%s*%%") then
    cite_line, cite_col = i - 1, line:find("{", s) -- the column after '{', 0-based
    break
  end
end
check(cite_line ~= nil, "found a citation in main.tex")
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = cite_line, character = cite_col } }
-- The first analysis runs in the background: hover again until the card is there.
local hover_text = ""
vim.wait(60000, function()
  local hover = client:request_sync("textDocument/hover", params, 20000, buf)
  hover_text = hover and hover.result and hover.result.contents and hover.result.contents.value or ""
  return #hover_text > 40
end, 500)
check(hover_text:find("%*%*") ~= nil and #hover_text > 40, "hover shows a Markdown card")
io.stdout:write("hover: " .. hover_text:sub(1, 120):gsub("\n", " ") .. "\n")

-- Introduce a citation of a paper that is in the knowledge base but not in references.bib.
local key = "vaswani2017attention"
vim.api.nvim_buf_set_lines(buf, cite_line + 1, cite_line + 1, false, { "Attention-only models exist \\citep{" .. key .. "}." })
local function undefined_diag()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == "undefined-citation" and d.message:find(key, 1, true) then return d end
  end
end
check(vim.wait(20000, function() return undefined_diag() ~= nil end, 100), "undefined-citation diagnostic published")

-- Quick fix: add the missing entry from the knowledge base.
local diag = undefined_diag()
if diag then
  local lsp_diag = diag.user_data and diag.user_data.lsp or {}
  local ca = client:request_sync("textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = diag.lnum, character = diag.col }, ["end"] = { line = diag.end_lnum, character = diag.end_col } },
    context = { diagnostics = { lsp_diag }, only = { "quickfix" } },
  }, 20000, buf)
  local actions = ca and ca.result or {}
  check(#actions > 0, "quick fix offered for the undefined key")
  local action = actions[1]
  if action then
    if action.edit then vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding) end
    if action.command then client:exec_cmd(type(action.command) == "table" and action.command or action, { bufnr = buf }) end
    local bib = vim.fn.bufnr(project .. "/references.bib")
    check(vim.wait(20000, function()
      local b = vim.fn.bufnr(project .. "/references.bib")
      return b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n"):find(key, 1, true) ~= nil
    end, 100), "quick fix added the entry to references.bib (buffer " .. bib .. ")")
  end
end

-- The "Generate related work" source action.
local ca = client:request_sync("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } },
  context = { diagnostics = {}, only = { "source" } },
}, 20000, buf)
local generate
for _, a in ipairs(ca and ca.result or {}) do
  if a.title:find("Generate related work", 1, true) then generate = a end
end
check(generate ~= nil, "Generate related work offered as a source action")
if generate then
  if generate.edit then vim.lsp.util.apply_workspace_edit(generate.edit, client.offset_encoding) end
  if generate.command then client:exec_cmd(type(generate.command) == "table" and generate.command or generate, { bufnr = buf }) end
  check(vim.wait(120000, function()
    return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"):find("\\section{Related Work}", 1, true) ~= nil
  end, 200), "related-work section inserted into main.tex")
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  local intro = text:find("\\section{Introduction}", 1, true)
  local related = text:find("\\section{Related Work}", 1, true)
  check(intro ~= nil and related ~= nil and related > intro, "section placed after the introduction")
  local b = vim.fn.bufnr(project .. "/references.bib")
  local bibtext = b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") or ""
  local cited_ok = true
  for k in text:gmatch("\\cite[tp]?{([^}]*)}") do
    for one in k:gmatch("[^,%s]+") do
      if not bibtext:find("{" .. one .. ",", 1, true) then
        cited_ok = false
        io.stdout:write("  key without entry: " .. one .. "\n")
      end
    end
  end
  check(cited_ok, "every cited key has an entry in references.bib")
end
vim.cmd("silent! wall")
finish()
