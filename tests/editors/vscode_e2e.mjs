// Drives real VS Code (code-server) in headless Chromium: open the example, wait for
// diagnostics, hover a citation, run "relatex: Generate related work", save.
//   node vscode_e2e.mjs URL PROJECT_DIR SCREENSHOT_DIR
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// playwright-core lives with code-server in the editor tools directory, not in the repository.
const require = createRequire(path.join(process.env.EDITOR_TOOLS_MODULES || process.cwd(), "noop.js"));
const { chromium } = require("playwright-core");

const [url, project, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const log = (msg) => process.stdout.write(msg + "\n");
let failures = 0;
const check = (ok, what) => { log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) failures++; };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const shot = async (name) => page.screenshot({ path: path.join(shots, name) });
const palette = async (text) => {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget:not([style*='display: none']) input", { timeout: 20000 });
  await page.keyboard.type(text, { delay: 10 });
  await page.waitForTimeout(700);
  await page.keyboard.press("Enter");
};

try {
  await page.goto(`${url}/?folder=${encodeURIComponent(project)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench", { timeout: 120000 });
  await page.waitForTimeout(3000);
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { timeout: 20000 });
  await page.keyboard.type("main.tex", { delay: 20 });
  await page.waitForTimeout(1000);
  await page.keyboard.press("Enter");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30000 });
  await shot("1-opened.png");

  // Diagnostics: the Problems status-bar item counts errors and warnings; hints show as squiggles.
  const hasDiagnostics = async () => page.evaluate(() => {
    const squiggles = document.querySelectorAll(".squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint");
    const status = document.querySelector("#status\\.problems");
    const counts = status ? (status.textContent || "").match(/\d+/g) || [] : [];
    return squiggles.length > 0 || counts.some((n) => Number(n) > 0);
  });
  let diag = false;
  for (let i = 0; i < 120 && !diag; i++) { diag = await hasDiagnostics(); if (!diag) await page.waitForTimeout(500); }
  check(diag, "diagnostics shown");
  await shot("2-diagnostics.png");

  // Hover: put the cursor inside the first \cite key and show the hover.
  const text = fs.readFileSync(path.join(project, "main.tex"), "utf8").split("\n");
  const lineIndex = text.findIndex((l) => /\\cite[tp]?\{/.test(l) && !/^\s*%/.test(l));
  const col = text[lineIndex].search(/\\cite[tp]?\{/);
  const keyCol = text[lineIndex].indexOf("{", col) + 2;
  await page.keyboard.press("Control+G");
  await page.waitForTimeout(500);
  await page.keyboard.type(`${lineIndex + 1}:${keyCol + 1}`, { delay: 20 });
  await page.keyboard.press("Enter");
  await page.waitForTimeout(500);
  await palette("Show or Focus Hover");
  let hover = "";
  for (let i = 0; i < 40 && hover.length < 40; i++) {
    hover = await page.evaluate(() => {
      const h = document.querySelector(".monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover .hover-contents");
      return h ? h.textContent || "" : "";
    });
    if (hover.length < 40) await page.waitForTimeout(500);
  }
  log(`hover: ${hover.slice(0, 120)}`);
  check(hover.length >= 40, "hover card shown for a citation");
  await shot("3-hover.png");
  await page.keyboard.press("Escape");

  // Generate related work from the command palette, then save everything.
  await palette("relatex: Generate related work");
  let inserted = false;
  for (let i = 0; i < 240 && !inserted; i++) {
    inserted = await page.evaluate(() => {
      const tabs = Array.from(document.querySelectorAll(".tab.dirty, .tabs-container .tab"));
      return tabs.some((t) => t.classList.contains("dirty"));
    });
    if (!inserted) await page.waitForTimeout(500);
  }
  check(inserted, "generation edited the document");
  await page.waitForTimeout(1500);
  await shot("4-generated.png");
  await palette("File: Save All Files");
  await page.waitForTimeout(2000);
  const saved = fs.readFileSync(path.join(project, "main.tex"), "utf8");
  check(saved.includes("\\section{Related Work}"), "main.tex saved with the related-work section");
  await palette("Go to Symbol in Editor");
  await page.waitForTimeout(1000);
  await page.keyboard.type("Related", { delay: 20 });
  await page.waitForTimeout(800);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(1000);
  await shot("5-related-work.png");
} catch (error) {
  log(`FAIL ${error}`);
  failures++;
  await shot("error.png").catch(() => {});
} finally {
  await browser.close();
}
log(`${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
