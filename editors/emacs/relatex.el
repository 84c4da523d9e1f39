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
;; C-c r c check claims, C-c r b build the knowledge base from this project, C-c r s knowledge
;; base status, C-c r i re-index the configured sources, C-c r a code actions at point.
;;
;; Hover cards are Markdown: with markdown-mode installed eglot renders them, otherwise the
;; server sends plain text.  Edits that relatex makes because you asked for them (generation,
;; quick fixes, code actions) are applied without eglot's "Server wants to edit" question;
;; other server-initiated edits still ask.  Progress of long commands shows in the mode line.

;;; Code:

(require 'eglot)
(require 'cl-lib)
(require 'markdown-mode nil t)  ; eglot renders hover Markdown with gfm-view-mode when present

(defvar eglot-confirm-server-edits)  ; newer eglot's name of the confirmation setting

(defgroup relatex nil
  "Writing assistant for LaTeX drafts: related work, verified citations."
  :group 'tools)

(defcustom relatex-server-command '("relatex" "serve")
  "Command that starts the relatex language server."
  :type '(repeat string))

(defcustom relatex-settings nil
  "Settings sent to the server, as a plist (section `relatex').
The knowledge base defaults to the per-user data folder, the same as
for the `relatex' command line.
Example: (:llm (:provider \"none\") :judge (:threshold 0.6))."
  :type 'plist)

(defconst relatex--modes '(latex-mode LaTeX-mode tex-mode plain-tex-mode bibtex-mode)
  "Major modes relatex serves.")

(defclass relatex-eglot-server (eglot-lsp-server) ()
  "An eglot connection to the relatex language server.")

(defun relatex--server-program (_interactive)
  "The server command with relatex's initialization options."
  (append (list 'relatex-eglot-server)
          relatex-server-command
          (list :initializationOptions (or relatex-settings (list :relatex nil)))))

(add-to-list 'eglot-server-programs (cons relatex--modes #'relatex--server-program))

(cl-defmethod eglot-client-capabilities :around ((_server relatex-eglot-server))
  "Ask for work-done progress (older eglot does not advertise it)."
  (let* ((caps (cl-call-next-method))
         (window (plist-get caps :window)))
    (unless (plist-get window :workDoneProgress)
      (setq caps (plist-put caps :window (plist-put (copy-sequence window) :workDoneProgress t))))
    caps))

;;; Progress in the mode line

(defvar relatex--progress (make-hash-table :test #'equal)
  "Token -> (TITLE MESSAGE PERCENTAGE) of the server's running progress.")

(defvar relatex-last-progress nil
  "The last progress text shown, e.g. \"building the knowledge base 40%\".")

(defun relatex--progress-text (entry)
  "One progress ENTRY (TITLE MESSAGE PERCENTAGE) as mode-line text."
  (pcase-let ((`(,title ,message ,percentage) entry))
    (concat (string-remove-prefix "relatex: " (or title ""))
            (if (and message (not (string-empty-p message))) (format ": %s" message) "")
            (if percentage (format " %d%%" percentage) ""))))

(defun relatex--lighter ()
  "The `relatex-mode' lighter, with the running progress if any."
  (let (texts)
    (maphash (lambda (_token entry) (push (relatex--progress-text entry) texts)) relatex--progress)
    (if texts (format " relatex[%s]" (string-join texts "; ")) " relatex")))

(cl-defmethod eglot-handle-notification :after
  ((_server relatex-eglot-server) (_method (eql $/progress)) &key token value &allow-other-keys)
  "Track relatex's work-done progress for the mode line."
  (let ((kind (plist-get value :kind))
        (old (gethash token relatex--progress)))
    (if (equal kind "end")
        (progn (remhash token relatex--progress)
               (when-let ((message (plist-get value :message)))
                 (message "relatex: %s: %s" (string-remove-prefix "relatex: " (or (car old) "")) message)))
      (puthash token (list (or (plist-get value :title) (car old))
                           (or (plist-get value :message) (cadr old))
                           (or (plist-get value :percentage) (caddr old)))
               relatex--progress)
      (setq relatex-last-progress (relatex--progress-text (gethash token relatex--progress))))
    (force-mode-line-update t)))

;;; Edits the user asked for apply without a question

(defvar relatex--user-edit nil
  "Non-nil while applying an edit that the user started through relatex.")

(defvar relatex--started-commands 0
  "relatex commands started by the user whose edits have not arrived yet.")

(defun relatex--edit-paths (wedit)
  "The files a WorkspaceEdit WEDIT changes."
  (append (mapcar (lambda (change)
                    (eglot--uri-to-path (plist-get (plist-get change :textDocument) :uri)))
                  (plist-get wedit :documentChanges))
          (cl-loop for (uri _edits) on (plist-get wedit :changes) by #'cddr
                   collect (eglot--uri-to-path (substring (symbol-name uri) 1)))))

(defun relatex--visit-edited-files (wedit &rest _)
  "Visit the files of WEDIT: eglot then edits buffers without asking."
  (when relatex--user-edit
    (dolist (path (relatex--edit-paths wedit))
      (when (and path (file-exists-p path))
        (find-file-noselect path)))))

(advice-add 'eglot--apply-workspace-edit :before #'relatex--visit-edited-files)

(cl-defmethod eglot-handle-request :around
  ((_server relatex-eglot-server) (_method (eql workspace/applyEdit)) &rest _params)
  "Apply relatex's edit without a question when the user started it."
  (if (or relatex--user-edit (> relatex--started-commands 0))
      (let ((relatex--user-edit t)
            (eglot-confirm-server-initiated-edits nil)
            (eglot-confirm-server-edits nil))
        (cl-call-next-method))
    (cl-call-next-method)))

(defun relatex--workspace-configuration (&rest _)
  "Answer `workspace/configuration' for the section relatex."
  (list :relatex (or relatex-settings (make-hash-table))))

(defcustom relatex-command-timeout 600
  "Seconds a relatex command (generation, verification) may run."
  :type 'integer)

(defconst relatex--command-titles
  '(("relatex.generateRelatedWork" . "generating related work")
    ("relatex.verifyBibliography" . "verifying the bibliography")
    ("relatex.checkClaims" . "checking claims")
    ("relatex.buildKnowledgeBase" . "building the knowledge base")
    ("relatex.reindex" . "re-indexing the configured sources"))
  "What each server command does, in words.")

(defun relatex--outcome (command result)
  "A sentence for the RESULT of COMMAND."
  (let ((error (plist-get result :error)))
    (cond (error (format "failed: %s" error))
          ((plist-get result :cancelled) "cancelled")
          ((equal command "relatex.generateRelatedWork")
           (if (eq (plist-get result :applied) t)
               (format "inserted, citing %d papers" (length (plist-get result :cited_keys)))
             "nothing was applied"))
          ((equal command "relatex.buildKnowledgeBase")
           (if (eq (plist-get result :completed) t)
               (format "done: %s records" (plist-get result :records))
             "stopped; run it again to resume"))
          (t "done"))))

(defun relatex--execute (command)
  "Run the server COMMAND on the current buffer's file, without blocking Emacs.
Generation and verification take seconds to minutes; the server reports
progress (shown in the mode line) and applies its edits through
`workspace/applyEdit' when done."
  (let ((server (eglot-current-server))
        (title (or (cdr (assoc command relatex--command-titles)) command)))
    (unless server (user-error "relatex: no language server in this buffer (M-x eglot)"))
    (message "relatex: %s..." title)
    (cl-incf relatex--started-commands)
    (jsonrpc-async-request
     server :workspace/executeCommand
     (list :command command :arguments (vector (eglot--path-to-uri (buffer-file-name))))
     :success-fn (lambda (result)
                   (cl-decf relatex--started-commands)
                   (message "relatex: %s %s" title (relatex--outcome command result)))
     :error-fn (lambda (error)
                 (cl-decf relatex--started-commands)
                 (message "relatex: %s failed: %s" title (or (plist-get error :message) error)))
     :timeout-fn (lambda ()
                   (cl-decf relatex--started-commands)
                   (message "relatex: %s timed out" title))
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

(defun relatex-build-knowledge-base ()
  "Build the knowledge base from the project's .bib files and sources."
  (interactive)
  (relatex--execute "relatex.buildKnowledgeBase"))

(defun relatex-reindex ()
  "Re-index the configured knowledge-base sources (`knowledgeBase.sources')."
  (interactive)
  (relatex--execute "relatex.reindex"))

(defun relatex-status ()
  "Say which knowledge base the server uses: its folder, size, model and age."
  (interactive)
  (let ((server (or (eglot-current-server) (user-error "relatex: no language server in this buffer"))))
    (jsonrpc-async-request
     server :workspace/executeCommand (list :command "relatex.knowledgeBaseStatus" :arguments [])
     :success-fn (lambda (status)
                   (message "relatex: %s%s" (plist-get status :text)
                            (if (eq (plist-get status :loaded) t) "" " (not loaded yet)"))))))

(defun relatex-code-actions ()
  "Code actions at point; the edits of the one you choose apply without a question."
  (interactive)
  (let ((relatex--user-edit t))
    (call-interactively #'eglot-code-actions)))

(defvar relatex-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c r g") #'relatex-generate-related-work)
    (define-key map (kbd "C-c r v") #'relatex-verify-bibliography)
    (define-key map (kbd "C-c r c") #'relatex-check-claims)
    (define-key map (kbd "C-c r b") #'relatex-build-knowledge-base)
    (define-key map (kbd "C-c r s") #'relatex-status)
    (define-key map (kbd "C-c r i") #'relatex-reindex)
    (define-key map (kbd "C-c r a") #'relatex-code-actions)
    map)
  "Keymap of `relatex-mode'.")

(define-minor-mode relatex-mode
  "relatex commands in a LaTeX or BibTeX buffer."
  :lighter (:eval (relatex--lighter))
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
