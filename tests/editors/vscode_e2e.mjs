// Drives real VS Code (code-server) in headless Chromium through the relatex extension:
// open the example with an empty data folder, build the knowledge base from the palette ("relatex:
// Build knowledge base from this project", status bar before and after), wait for diagnostics, hover a citation, run "relatex: Generate related work"
// from the command palette, save all, and check the files on disk.
//   node vscode_e2e.mjs URL PROJECT_DIR SCREENSHOT_DIR [USER_SETTINGS_JSON]
// With USER_SETTINGS_JSON (the profile's settings.json), it finally points relatex.server.path at a
// file that does not exist, reloads the window and checks the error message the extension shows.
// Every step waits on a condition (with generous limits for slow machines), never on a fixed sleep
// alone. Screenshots are written as the steps go, so a failure leaves a picture of what VS Code showed.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// playwright-core lives with code-server in the editor tools directory, not in the repository.
const require = createRequire(path.join(process.env.EDITOR_TOOLS_MODULES || process.cwd(), "noop.js"));
const { chromium } = require("playwright-core");

const [url, project, shots, userSettings] = process.argv.slice(2);
if (!url || !project || !shots) {
  console.error("usage: node vscode_e2e.mjs URL PROJECT_DIR SCREENSHOT_DIR");
  process.exit(2);
}
// Slow machines: every limit is multiplied by RELATEX_E2E_SLOWDOWN (default 1).
const SLOW = Number(process.env.RELATEX_E2E_SLOWDOWN || "1");
const seconds = (s) => Math.round(s * 1000 * SLOW);
fs.mkdirSync(shots, { recursive: true });
const started = Date.now();
const log = (msg) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${msg}\n`);
let failures = 0;
const check = (ok, what) => {
  log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
  return ok;
};

/** Poll `probe` until it returns a truthy value or the limit passes; returns the last value. */
async function until(probe, limitMs, everyMs = 250) {
  const end = Date.now() + limitMs;
  let value;
  for (;;) {
    try {
      value = await probe();
    } catch {
      value = undefined;
    }
    if (value || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

// What the test expects, read from the scratch project before VS Code touches it.
const mainPath = path.join(project, "main.tex");
const bibPath = path.join(project, "references.bib");
const original = fs.readFileSync(mainPath, "utf8");
const lines = original.split("\n");
const citeLine = lines.findIndex((l) => /\\cite[tp]?\{/.test(l) && !/^\s*%/.test(l));
const citeCol = lines[citeLine].indexOf("{", lines[citeLine].search(/\\cite[tp]?\{/)) + 1;
const citedKey = lines[citeLine].slice(citeCol).split(/[,}]/)[0].trim();
const bibKeys = (text) => new Set(Array.from(text.matchAll(/@(?!string|comment|preamble)\w+\s*[{(]\s*([^,\s]+)\s*,/gi), (m) => m[1]));
const bibTitle = (text, key) => {
  const start = text.indexOf(`{${key},`);
  const match = start < 0 ? null : text.slice(start).match(/\btitle\s*=\s*[{"](.+?)[}"]\s*,?\s*\n/i);
  return match ? match[1].replace(/[{}]/g, "") : "";
};
const citeKeys = (text) => Array.from(text.replace(/(^|[^\\])%.*$/gm, "$1")
  .matchAll(/\\(?:no)?cite[a-zA-Z]*\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^}]*)\}/g))
  .flatMap((m) => m[1].split(",").map((k) => k.trim()).filter(Boolean));
const originalBib = fs.readFileSync(bibPath, "utf8");
const originalBibKeys = bibKeys(originalBib);
const expectedTitle = bibTitle(originalBib, citedKey);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.setDefaultTimeout(seconds(60));
const shot = async (name) => {
  await page.screenshot({ path: path.join(shots, name) });
  log(`screenshot ${name}`);
};

const quickInputVisible = () => page.evaluate(() => {
  const widget = document.querySelector(".quick-input-widget");
  return !!widget && widget.style.display !== "none" && widget.getBoundingClientRect().height > 0;
});
/** Labels of the rows the quick input currently lists. */
const quickInputRows = () => page.evaluate(() => Array.from(document.querySelectorAll(".quick-input-list .monaco-list-row"))
  .map((row) => row.getAttribute("aria-label") || row.textContent || ""));

/** Open the quick input with `key`, type `text`, wait for a row matching `pick` and accept it. */
async function quickPick(key, text, pick, what) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.keyboard.press("Escape");
    await page.keyboard.press(key);
    if (!(await until(quickInputVisible, seconds(20)))) continue;
    await page.keyboard.type(text, { delay: 15 });
    const rows = await until(async () => {
      const all = await quickInputRows();
      return all.some(pick) ? all : undefined;
    }, seconds(30));
    if (!rows) {
      log(`  ${what}: no matching entry yet (attempt ${attempt}): ${JSON.stringify(await quickInputRows())}`);
      continue;
    }
    // Select the matching row with the arrow keys (the first row is focused), then accept it.
    const index = rows.findIndex(pick);
    for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    return true;
  }
  throw new Error(`${what}: the quick input never offered it`);
}
const runCommand = (label) => quickPick("F1", label, (row) => row.toLowerCase().startsWith(label.toLowerCase()), label);

/** The active editor tab's label and whether it is dirty. */
const activeTab = () => page.evaluate(() => {
  const tab = document.querySelector(".editor-group-container.active .tabs-container .tab.active")
    || document.querySelector(".tabs-container .tab.active");
  return tab ? { label: tab.getAttribute("aria-label") || "", dirty: tab.classList.contains("dirty") } : null;
});
/** Text rendered by the active text editor (only the visible lines). */
const editorText = () => page.evaluate(() => {
  const editor = document.querySelector(".editor-group-container.active .editor-container .monaco-editor .view-lines")
    || document.querySelector(".editor-container .monaco-editor .view-lines");
  return editor ? editor.textContent || "" : "";
});

async function openFile(name, marker) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await quickPick("Control+P", name, (row) => row.includes(name), `open ${name}`);
    const opened = await until(async () => {
      const tab = await activeTab();
      return tab && tab.label.includes(name) && (await editorText()).includes(marker);
    }, seconds(30));
    if (opened) return;
    log(`  ${name} did not open (attempt ${attempt})`);
  }
  throw new Error(`could not open ${name}`);
}

async function goTo(line, column) {
  await quickPick("Control+G", `${line}:${column}`, () => true, "go to line");
  await until(async () => (await page.evaluate(() => {
    const status = document.querySelector("#status\\.editor\\.selection");
    return status ? status.textContent || "" : "";
  })).includes(`Ln ${line}, Col ${column}`), seconds(10));
}

try {
  // 1. The workbench with the example folder and main.tex.
  await page.goto(`${url}/?folder=${encodeURIComponent(project)}`, { waitUntil: "domcontentloaded", timeout: seconds(180) });
  await page.waitForSelector(".monaco-workbench .part.editor", { timeout: seconds(180) });
  // The explorer lists the project once the workbench has restored.
  await until(() => page.evaluate(() => /main\.tex/.test(document.querySelector(".explorer-folders-view")?.textContent || "")),
    seconds(120));
  await openFile("main.tex", "documentclass");
  check(true, "main.tex opened in the editor");
  await shot("1-opened.png");

  // 1b. The data folder is empty: the status bar says so; the palette builds the knowledge base
  // from the project's .bib files, and the status bar then shows its size.
  const kbStatus = () => page.evaluate(() => Array.from(document.querySelectorAll(".statusbar-item"))
    .map((el) => (el.textContent || "").trim()).find((t) => /^relatex: (no knowledge base|[\d,]+ papers)/.test(t)) || "");
  const missingShown = await until(async () => /no knowledge base/.test(await kbStatus()), seconds(120));
  check(!!missingShown, `the status bar says there is no knowledge base ("${await kbStatus()}")`);
  await runCommand("relatex: Build knowledge base from this project");
  const built = await until(async () => {
    const text = await kbStatus();
    return /relatex: [\d,]+ papers$/.test(text) ? text : undefined;
  }, seconds(600), 500);
  check(!!built && Number(built.match(/[\d,]+/)[0].replace(/,/g, "")) >= 41,
    `knowledge base built from the project and loaded ("${built || (await kbStatus())}")`);

  // 2. Diagnostics from the server (claim checks and bibliography checks run on open).
  const problemCounts = () => page.evaluate(() => {
    const status = document.querySelector("#status\\.problems");
    return (status?.textContent?.match(/\d+/g) || []).map(Number);
  });
  const squiggles = () => page.evaluate(() =>
    document.querySelectorAll(".squiggly-error, .squiggly-warning, .squiggly-info, .squiggly-hint").length);
  const diagnostics = await until(async () => {
    const counts = await problemCounts();
    return counts.some((n) => n > 0) || (await squiggles()) > 0;
  }, seconds(240), 500);
  log(`  problems in the status bar: ${JSON.stringify(await problemCounts())}, squiggles in view: ${await squiggles()}`);
  check(diagnostics, "diagnostics shown");
  if (diagnostics) {
    await page.keyboard.press("Control+Shift+M");
    const problems = await until(async () => {
      const rows = await page.evaluate(() => Array.from(document.querySelectorAll(".markers-panel .monaco-list-row"))
        .map((row) => row.getAttribute("aria-label") || row.textContent || ""));
      return rows.length > 0 ? rows : undefined;
    }, seconds(20));
    for (const row of (problems || []).slice(0, 4)) log(`  problem: ${row.slice(0, 150)}`);
    check(!!problems, "the Problems panel lists the findings");
  }
  await shot("2-diagnostics.png");

  // 3. Hover card of the first citation: move the mouse onto the key (cursor placed there first).
  await page.keyboard.press("Escape");
  await page.evaluate(() => document.querySelector(".editor-group-container.active .monaco-editor textarea")?.focus());
  await goTo(citeLine + 1, citeCol + 3);
  const hoverText = () => page.evaluate(() => Array.from(document.querySelectorAll(".monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover:not(.hidden) .hover-contents"))
    .filter((el) => el.getBoundingClientRect().height > 0).map((el) => el.textContent || "").join("\n"));
  const cardShown = (text) => text.length >= 40 && (!expectedTitle || text.toLowerCase().includes(expectedTitle.toLowerCase().slice(0, 20)));
  let hover = "";
  for (let attempt = 1; attempt <= 4 && !cardShown(hover); attempt++) {
    const cursor = await page.evaluate(() => {
      const c = document.querySelector(".editor-group-container.active .monaco-editor .cursors-layer .cursor");
      if (!c) return null;
      const r = c.getBoundingClientRect();
      return { x: r.x + 4, y: r.y + r.height / 2 };
    });
    if (cursor && attempt % 2 === 1) {
      await page.mouse.move(cursor.x - 40, cursor.y + 30);
      await page.mouse.move(cursor.x, cursor.y, { steps: 4 });
    } else {
      await runCommand("Show or Focus Hover");
    }
    hover = (await until(async () => {
      const text = await hoverText();
      return cardShown(text) ? text : undefined;
    }, seconds(30))) || (await hoverText());
  }
  log(`  hover: ${hover.replace(/\s+/g, " ").slice(0, 160)}`);
  check(cardShown(hover), `hover card of \\cite{${citedKey}} shows "${expectedTitle}"`);
  await shot("3-hover.png");
  await page.keyboard.press("Escape");
  await page.mouse.move(5, 400);

  // 4. "relatex: Generate related work" from the command palette: progress, then the edit.
  await runCommand("relatex: Generate related work");
  // The edit shows as unsaved changes (auto save is off in the test profile); while waiting, log
  // the progress messages the server reports in the status bar.
  const progressText = () => page.evaluate(() => {
    const items = Array.from(document.querySelectorAll(".statusbar-item, .notifications-toasts .notification-toast"))
      .map((el) => el.textContent || "").filter((t) => /relatex/i.test(t) && /generat|select|writ|verif/i.test(t));
    return items.join(" | ").replace(/\s+/g, " ").trim();
  });
  const dirty = () => page.evaluate(() => document.title.startsWith("\u25cf")
    || Array.from(document.querySelectorAll(".tabs-container .tab")).some((t) => t.classList.contains("dirty")));
  let lastProgress = "";
  let progressShot = false;
  const edited = await until(async () => {
    const text = await progressText();
    if (text && text !== lastProgress) {
      log(`  progress: ${text.slice(0, 140)}`);
      lastProgress = text;
      if (!progressShot) {
        progressShot = true;
        await shot("4-generating.png");
      }
    }
    return (await dirty()) || fs.readFileSync(mainPath, "utf8").includes("\\section{Related Work}");
  }, seconds(900), 500);
  check(!!edited, "generation edited main.tex (unsaved changes in the editor)");
  const messages = await page.evaluate(() => Array.from(document.querySelectorAll(".notifications-toasts .notification-toast"))
    .map((el) => (el.textContent || "").replace(/\s+/g, " ").trim()));
  for (const message of messages) log(`  notification: ${message.slice(0, 160)}`);

  // 5. Save all and check the files on disk.
  await runCommand("File: Save All");
  const saved = await until(() => {
    const text = fs.readFileSync(mainPath, "utf8");
    return text.includes("\\section{Related Work}") ? text : undefined;
  }, seconds(60));
  check(!!saved, "main.tex saved with \\section{Related Work}");
  const text = saved || fs.readFileSync(mainPath, "utf8");
  const intro = text.indexOf("\\section{Introduction}");
  const related = text.indexOf("\\section{Related Work}");
  const nextAfterIntro = text.slice(intro + 1).search(/\\section\{|\\input\{|\\include\{/) + intro + 1;
  check(intro >= 0 && related > intro && related === nextAfterIntro,
    "the related-work section comes right after the introduction");
  const bibOk = await until(() => {
    const keys = bibKeys(fs.readFileSync(bibPath, "utf8"));
    const missing = [...new Set(citeKeys(text))].filter((k) => !keys.has(k));
    return missing.length === 0 ? true : undefined;
  }, seconds(30));
  const keys = bibKeys(fs.readFileSync(bibPath, "utf8"));
  const cited = [...new Set(citeKeys(text))];
  const missing = cited.filter((k) => !keys.has(k));
  const added = cited.filter((k) => !citeKeys(original).includes(k));
  log(`  main.tex cites ${cited.length} keys (${added.length} new: ${added.slice(0, 8).join(", ")}${added.length > 8 ? ", ..." : ""})`);
  check(!!bibOk, `every \\cite key of main.tex has an entry in references.bib${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
  check(added.length > 0, "the generated section cites papers found in the knowledge base");
  check(!!(await until(async () => !(await dirty()), seconds(30))), "no unsaved changes left after Save All");

  // The generated section in the editor, with the panel hidden to show more of it.
  if (await page.evaluate(() => (document.querySelector(".part.panel")?.getBoundingClientRect().height || 0) > 0)) {
    await page.keyboard.press("Control+J");
  }
  if (related >= 0) {
    const relatedLine = text.slice(0, related).split("\n").length;
    await goTo(relatedLine, 1);
    await page.keyboard.press("Control+L"); // select the heading line so it stands out
    await until(async () => (await editorText()).includes("Related Work"), seconds(10));
    await shot("5-related-work.png");
  }
  await openFile("references.bib", "@");
  const bibText = fs.readFileSync(bibPath, "utf8");
  const newEntries = [...bibKeys(bibText)].filter((k) => !originalBibKeys.has(k));
  log(`  references.bib: ${newEntries.length} new entries (${newEntries.slice(0, 6).join(", ")}${newEntries.length > 6 ? ", ..." : ""})`);
  const firstNew = newEntries.map((k) => bibText.indexOf(`{${k},`)).filter((i) => i >= 0).sort((a, b) => a - b)[0];
  if (firstNew !== undefined) await goTo(bibText.slice(0, firstNew).split("\n").length, 1);
  await shot("6-references.png");

  // 6. No server: a configured path that does not exist gives a clear message after a reload.
  if (userSettings) {
    const missing = path.join(project, "no-such-dir", "relatex");
    const settings = JSON.parse(fs.readFileSync(userSettings, "utf8"));
    fs.writeFileSync(userSettings, JSON.stringify({ ...settings, "relatex.server.path": missing }, null, 2));
    const toasts = () => page.evaluate(() => Array.from(document.querySelectorAll(".notifications-toasts .notification-toast"))
      .map((el) => (el.textContent || "").replace(/\s+/g, " ").trim()).join(" | "));
    // Reload the window (the extension reads the setting when it starts); opening main.tex activates it.
    await until(async () => {
      await page.reload({ waitUntil: "domcontentloaded" });
      await page.waitForSelector(".monaco-workbench .part.editor", { timeout: seconds(180) });
      await until(() => page.evaluate(() => /main\.tex/.test(document.querySelector(".explorer-folders-view")?.textContent || "")),
        seconds(120));
      if (!(await until(async () => /does not exist/.test(await toasts()), seconds(20)))) {
        await openFile("main.tex", "documentclass");
      }
      return until(async () => /does not exist/.test(await toasts()), seconds(60));
    }, seconds(300), 1000);
    const message = await toasts();
    log(`  message: ${message.slice(0, 220)}`);
    check(message.includes(missing) && /relatex\.server\.path/.test(message),
      "without a server, the extension names the missing executable and the setting to fix");
    // Let the toast finish sliding in before the picture.
    await until(() => page.evaluate(() => Array.from(document.querySelectorAll(".notifications-toasts .notification-toast"))
      .some((el) => {
        const r = el.getBoundingClientRect();
        return getComputedStyle(el).opacity === "1" && r.height > 0 && r.bottom <= window.innerHeight;
      })), seconds(10));
    await page.waitForTimeout(500);
    await shot("7-no-server.png");
  }
} catch (error) {
  log(`FAIL ${error instanceof Error ? error.message : error}`);
  failures++;
  await shot("error.png").catch(() => {});
} finally {
  await browser.close();
}
log(`${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
