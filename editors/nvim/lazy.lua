-- relatex as a lazy.nvim plugin spec: copy it into your specs (e.g. lua/plugins/relatex.lua)
-- and set `dir` to this repository's editors/nvim folder. lazy.nvim calls
-- require("relatex").setup(opts) when a TeX or BibTeX file is opened.
return {
  dir = "/path/to/relatex/editors/nvim",
  name = "relatex",
  ft = { "tex", "plaintex", "bib" },
  opts = {
    -- cmd = { "/path/to/relatex/.venv/bin/relatex", "serve" },  -- default: .venv upwards, then PATH
    -- completion = false,  -- when nvim-cmp or blink.cmp provides completion
  },
}
