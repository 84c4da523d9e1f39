;;; lsp-mode-snippet.el --- relatex with lsp-mode instead of eglot  -*- lexical-binding: t; -*-
;; Copy into init.el after lsp-mode is loaded.
(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration '(latex-mode . "latex"))
  (add-to-list 'lsp-language-id-configuration '(bibtex-mode . "bibtex"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection '("relatex" "serve"))
    :activation-fn (lsp-activate-on "latex" "bibtex")
    :server-id 'relatex
    :add-on? t
    :initialized-fn (lambda (workspace)
                      (with-lsp-workspace workspace
                        (lsp--set-configuration (lsp-configuration-section "relatex")))))))

(defun relatex-lsp-generate-related-work ()
  "Generate the related-work section through lsp-mode."
  (interactive)
  (lsp-send-execute-command "relatex.generateRelatedWork" (vector (lsp--buffer-uri))))
(defun relatex-lsp-build-knowledge-base ()
  "Build the knowledge base from this project's .bib files through lsp-mode."
  (interactive)
  (lsp-send-execute-command "relatex.buildKnowledgeBase" (vector (lsp--buffer-uri))))
;;; lsp-mode-snippet.el ends here
