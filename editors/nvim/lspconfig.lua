-- relatex with nvim-lspconfig (Neovim 0.10 and older setups).
-- Put this in your init.lua after nvim-lspconfig is loaded.
local configs = require("lspconfig.configs")
local util = require("lspconfig.util")

if not configs.relatex then
  configs.relatex = {
    default_config = {
      cmd = { "relatex", "serve" },
      filetypes = { "tex", "plaintex", "bib" },
      root_dir = util.root_pattern(".latexmkrc", ".git", "main.tex"),
      settings = { relatex = {} },
    },
  }
end

require("lspconfig").relatex.setup({
  settings = { relatex = {} },  -- the knowledge base: the per-user data folder, as for the CLI
  on_attach = function(client, bufnr)
    local function run(command)
      client.request("workspace/executeCommand",
        { command = command, arguments = { vim.uri_from_bufnr(bufnr) } }, nil, bufnr)
    end
    vim.keymap.set("n", "<leader>rg", function() run("relatex.generateRelatedWork") end, { buffer = bufnr })
    vim.keymap.set("n", "<leader>rv", function() run("relatex.verifyBibliography") end, { buffer = bufnr })
    vim.keymap.set("n", "<leader>rc", function() run("relatex.checkClaims") end, { buffer = bufnr })
    vim.keymap.set("n", "<leader>rb", function() run("relatex.buildKnowledgeBase") end, { buffer = bufnr })
  end,
})
