// The knowledge-base status in the status bar: what the server reports, in a few words.

/** The server's `relatex/knowledgeBaseStatus` notification (and `relatex.knowledgeBaseStatus` result). */
export interface KnowledgeBaseStatus {
  path: string;
  exists: boolean;
  records: number;
  model: string;
  loaded: boolean;
  error?: string;
  text: string;
  build_command?: string;
}

export interface StatusBarView {
  text: string;
  tooltip: string;
  command: string;
}

/** The status-bar item for a status: clicking builds the knowledge base when there is none. */
export function statusBarView(status: KnowledgeBaseStatus | undefined): StatusBarView {
  if (!status) {
    return { text: "$(sync~spin) relatex", tooltip: "relatex: loading the knowledge base", command: "relatex.showLog" };
  }
  if (!status.exists) {
    return {
      text: "$(warning) relatex: no knowledge base",
      tooltip: `${status.text}\nClick to build it from this project's .bib files.`,
      command: "relatex.buildKnowledgeBase",
    };
  }
  if (status.error) {
    return { text: "$(error) relatex: knowledge base", tooltip: status.text, command: "relatex.showLog" };
  }
  const papers = `${status.records.toLocaleString("en-US")} paper${status.records === 1 ? "" : "s"}`;
  return {
    text: `$(database) relatex: ${papers}${status.loaded ? "" : " (loading)"}`,
    tooltip: status.text,
    command: "relatex.showKnowledgeBaseStatus",
  };
}
