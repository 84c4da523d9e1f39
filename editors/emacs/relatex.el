;;; relatex.el --- relatex language server for LaTeX drafts, through eglot  -*- lexical-binding: t; -*-

;; Usage (init.el):
;;   (add-to-list 'load-path "/path/to/relatex/editors/emacs")
;;   (require 'relatex)
;;   (setq relatex-server-command '("/path/to/.venv/bin/relatex" "serve"))
;;   (add-hook 'LaTeX-mode-hook #'relatex-enable)   ; AUCTeX
;;   (add-hook 'latex-mode-hook #'relatex-enable)   ; built-in tex-mode
;;   (add-hook 'bibtex-mode-hook #'relatex-enable)
;;
;; Keys in `relatex-mode': C-c r g generate related work, C-c r v verify bibliography,
;; C-c r c check claims, C-c r i rebuild the index, C-c r a code actions at point.

;;; Code:

(require 'eglot)

(defgroup relatex nil
  "Writing assistant for LaTeX drafts: related work, verified citations."
  :group 'tools)

(defcustom relatex-server-command '("relatex" "serve")
  "Command that starts the relatex language server."
  :type '(repeat string))

(defcustom relatex-settings nil
  "Settings sent to the server, as a plist (section `relatex').
Example: (:knowledgeBase (:dataDir \"~/papers/kb\") :llm (:provider \"none\"))."
  :type 'plist)

(defconst relatex--modes '(latex-mode LaTeX-mode tex-mode plain-tex-mode bibtex-mode)
  "Major modes relatex serves.")

(defun relatex--server-program (_interactive)
  "The server command with relatex's initialization options."
  (append relatex-server-command
          (list :initializationOptions (or relatex-settings (list :relatex nil)))))

(add-to-list 'eglot-server-programs (cons relatex--modes #'relatex--server-program))

(defun relatex--workspace-configuration (&rest _)
  "Answer `workspace/configuration' for the section relatex."
  (list :relatex (or relatex-settings (make-hash-table))))

(defcustom relatex-command-timeout 600
  "Seconds a relatex command (generation, verification) may run."
  :type 'integer)

(defun relatex--execute (command)
  "Run the server COMMAND on the current buffer's file, without blocking Emacs.
Generation and verification take seconds to minutes; the server reports progress and
applies its edits through `workspace/applyEdit' when done."
  (let ((server (eglot-current-server)))
    (unless server (user-error "relatex: no language server in this buffer (M-x eglot)"))
    (message "relatex: %s started" command)
    (jsonrpc-async-request
     server :workspace/executeCommand
     (list :command command :arguments (vector (eglot--path-to-uri (buffer-file-name))))
     :success-fn (lambda (_result) (message "relatex: %s done" command))
     :error-fn (lambda (error) (message "relatex: %s failed: %s" command
                                        (or (plist-get error :message) error)))
     :timeout relatex-command-timeout)))

(defun relatex-generate-related-work ()
  "Generate the related-work section of this draft and insert it."
  (interactive)
  (relatex--execute "relatex.generateRelatedWork"))

(defun relatex-verify-bibliography ()
  "Verify every BibTeX entry of this draft against an authority."
  (interactive)
  (relatex--execute "relatex.verifyBibliography"))

(defun relatex-check-claims ()
  "Check that each citation supports its sentence."
  (interactive)
  (relatex--execute "relatex.checkClaims"))

(defun relatex-reindex ()
  "Rebuild the knowledge base from the configured sources."
  (interactive)
  (relatex--execute "relatex.reindex"))

(defvar relatex-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c r g") #'relatex-generate-related-work)
    (define-key map (kbd "C-c r v") #'relatex-verify-bibliography)
    (define-key map (kbd "C-c r c") #'relatex-check-claims)
    (define-key map (kbd "C-c r i") #'relatex-reindex)
    (define-key map (kbd "C-c r a") #'eglot-code-actions)
    map)
  "Keymap of `relatex-mode'.")

(define-minor-mode relatex-mode
  "relatex commands in a LaTeX or BibTeX buffer."
  :lighter " relatex"
  :keymap relatex-mode-map)

;;;###autoload
(defun relatex-enable ()
  "Start eglot with relatex in this buffer and turn on `relatex-mode'."
  (interactive)
  (setq-local eglot-workspace-configuration #'relatex--workspace-configuration)
  (relatex-mode 1)
  (eglot-ensure))

(provide 'relatex)
;;; relatex.el ends here
