-- relatex for Neovim 0.11+: language server configuration, keymaps and user commands.
--
--   require("relatex").setup({
--     cmd = { "relatex", "serve" },          -- or the path of a virtualenv's relatex
--     settings = { relatex = {} },           -- server settings; the knowledge base defaults to the
--                                            -- per-user data folder, as for the `relatex` CLI
--     keymaps = true,                        -- <leader>rg generate, <leader>rv verify, <leader>rc claims
--     completion = true,                     -- vim.lsp.completion.enable on attach (false with nvim-cmp / blink.cmp)
--   })
local M = {}

local COMMANDS = {
  generate = "relatex.generateRelatedWork",
  verify = "relatex.verifyBibliography",
  claims = "relatex.checkClaims",
  reindex = "relatex.reindex",
  build = "relatex.buildKnowledgeBase",
  status = "relatex.knowledgeBaseStatus",
}

--- The relatex client attached to a buffer, if any.
function M.client(bufnr)
  local clients = vim.lsp.get_clients({ bufnr = bufnr or 0, name = "relatex" })
  return clients[1]
end

--- The buffer (default: current) and its relatex client; nil with a warning when none is attached.
local function attached(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    vim.notify("relatex: no language server attached to this buffer", vim.log.levels.WARN)
  end
  return bufnr, client
end

--- Run one of the server's commands on the current buffer.
function M.run(name, bufnr)
  local buf, client = attached(bufnr)
  if not client then return end
  local command = { title = name, command = COMMANDS[name], arguments = { vim.uri_from_bufnr(buf) } }
  client:exec_cmd(command, { bufnr = buf })
end

--- Say which knowledge base the server uses: folder, size, model and age.
function M.status(bufnr)
  local buf, client = attached(bufnr)
  if not client then return end
  client:request("workspace/executeCommand", { command = COMMANDS.status, arguments = {} }, function(err, result)
    if err or not result then
      vim.notify("relatex: status failed: " .. (err and err.message or "no answer"), vim.log.levels.ERROR)
      return
    end
    vim.notify("relatex: " .. result.text .. (result.loaded and "" or " (not loaded yet)"), vim.log.levels.INFO)
  end, buf)
end

--- Turn on Neovim's built-in LSP completion for relatex in a buffer (0.11+), popping up as you type.
local function enable_completion(client, bufnr)
  if vim.lsp.completion and vim.lsp.completion.enable then
    vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = true })
  end
end

local function find_executable()
  local venv = vim.fs.find(".venv", { upward = true, type = "directory" })[1]
  if venv and vim.fn.executable(venv .. "/bin/relatex") == 1 then
    return venv .. "/bin/relatex"
  end
  if vim.fn.executable("relatex") == 1 then
    return "relatex"
  end
  return nil
end

function M.setup(opts)
  opts = opts or {}
  local cmd = opts.cmd
  if not cmd then
    local exe = find_executable()
    if not exe then
      vim.notify("relatex: the 'relatex' command was not found; install it with `pip install relatex` "
        .. "or pass cmd = { '/path/to/relatex', 'serve' } to setup()", vim.log.levels.ERROR)
      return
    end
    cmd = { exe, "serve" }
  end
  vim.lsp.config("relatex", {
    cmd = cmd,
    filetypes = opts.filetypes or { "tex", "plaintex", "latex", "bib" },
    root_markers = opts.root_markers or { ".latexmkrc", ".git", "main.tex" },
    settings = opts.settings or { relatex = {} },
    init_options = opts.init_options or (opts.settings and opts.settings.relatex) or {},
  })
  vim.lsp.enable("relatex")

  vim.api.nvim_create_user_command("RelatexGenerate", function() M.run("generate") end,
    { desc = "relatex: generate the related-work section" })
  vim.api.nvim_create_user_command("RelatexVerify", function() M.run("verify") end,
    { desc = "relatex: verify the bibliography" })
  vim.api.nvim_create_user_command("RelatexCheckClaims", function() M.run("claims") end,
    { desc = "relatex: check that citations support their sentences" })
  vim.api.nvim_create_user_command("RelatexReindex", function() M.run("reindex") end,
    { desc = "relatex: re-index the configured knowledge-base sources" })
  vim.api.nvim_create_user_command("RelatexBuildKnowledgeBase", function() M.run("build") end,
    { desc = "relatex: build the knowledge base from this project's .bib files" })
  vim.api.nvim_create_user_command("RelatexStatus", function() M.status() end,
    { desc = "relatex: which knowledge base is used, its size, model and age" })

  if opts.completion ~= false then
    vim.api.nvim_create_autocmd("LspAttach", {
      group = vim.api.nvim_create_augroup("relatex-completion", { clear = true }),
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == "relatex" then
          enable_completion(client, args.buf)
        end
      end,
    })
  end

  if opts.keymaps ~= false then
    vim.api.nvim_create_autocmd("LspAttach", {
      group = vim.api.nvim_create_augroup("relatex-keymaps", { clear = true }),
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if not client or client.name ~= "relatex" then
          return
        end
        local function map(lhs, name, desc)
          vim.keymap.set("n", lhs, function() M.run(name, args.buf) end, { buffer = args.buf, desc = desc })
        end
        map("<leader>rg", "generate", "relatex: generate related work")
        map("<leader>rv", "verify", "relatex: verify bibliography")
        map("<leader>rc", "claims", "relatex: check claims")
      end,
    })
  end
end

return M
