;;; emacs_e2e.el --- real Emacs + eglot end-to-end test of editors/emacs/relatex.el  -*- lexical-binding: t; -*-
;; emacs --batch -l emacs_e2e.el REPO PROJECT KB RELATEX
;; KB is an empty data folder: the knowledge base is built from the editor first.
(require 'package)
(package-initialize)
(require 'cl-lib)
(let* ((args command-line-args-left)
       (repo (nth 0 args)) (project (nth 1 args)) (kb (nth 2 args)) (exe (nth 3 args))
       (failures 0)
       (prompts nil)
       (lighters nil))
  (setq command-line-args-left nil)
  ;; Any question is recorded (and answered yes): relatex's own edits must not ask.
  (fset 'y-or-n-p (lambda (prompt) (push prompt prompts) (princ (format "%s-> yes\n" prompt)) t))
  (add-to-list 'load-path (expand-file-name "editors/emacs" repo))
  (require 'relatex)
  (setq relatex-server-command (list exe "serve")
        relatex-settings (list :knowledgeBase (list :dataDir kb) :debounceMs 50)
        eglot-sync-connect 30
        eglot-connect-timeout 60)
  (cl-flet ((check (ok what)
              (princ (format "%s %s\n" (if ok "ok  " "FAIL") what))
              (unless ok (cl-incf failures)))
            (wait-until (pred seconds)
              (let ((deadline (+ (float-time) seconds)))
                (while (and (not (funcall pred)) (< (float-time) deadline))
                  (accept-process-output nil 0.1))
                (funcall pred))))
    (find-file (expand-file-name "main.tex" project))
    (latex-mode)
    (relatex-enable)
    ;; `eglot-ensure' waits for the command loop, which batch mode never runs: connect now.
    (unless (eglot-current-server)
      (apply #'eglot (eglot--guess-contact)))
    (check (wait-until (lambda () (eglot-current-server)) 60) "eglot connected to relatex")
    (let ((server (eglot-current-server)))
      (when server
        ;; No knowledge base in the clean data folder: it is offered as a code action.
        (let* ((status (lambda () (jsonrpc-request server :workspace/executeCommand
                                                   (list :command "relatex.knowledgeBaseStatus" :arguments []))))
               (actions (jsonrpc-request
                         server :textDocument/codeAction
                         (list :textDocument (eglot--TextDocumentIdentifier)
                               :range (list :start (list :line 0 :character 0) :end (list :line 0 :character 0))
                               :context (list :diagnostics [] :only ["source"]))))
               (titles (mapcar (lambda (a) (plist-get a :title)) actions)))
          (check (eq (plist-get (funcall status) :exists) :json-false) "status: no knowledge base yet")
          (check (member "Build knowledge base from this project" titles)
                 "Build knowledge base from this project offered as a code action")
          ;; what the mode line shows each time the progress moves
          (add-variable-watcher 'relatex-last-progress
                                (lambda (&rest _) (push (relatex--lighter) lighters)))
          (relatex-build-knowledge-base)
          (check (wait-until (lambda () (eq (plist-get (funcall status) :loaded) t)) 240)
                 "knowledge base built and loaded")
          (princ (format "status: %s\n" (plist-get (funcall status) :text)))
          (check (>= (plist-get (funcall status) :records) 41) "knowledge base holds the project's papers")
          (check (cl-some (lambda (l) (string-match-p "relatex\\[.*knowledge base" l)) lighters)
                 "mode line showed the build's progress")
          (princ (format "mode line during the build: %S\n" (reverse lighters))))
        ;; Hover on the first citation key.
        (goto-char (point-min))
        (re-search-forward "\\\\cite[tp]?{")
        ;; The first analysis runs in the background: hover again until the card is there.
        (let ((value ""))
          (wait-until
           (lambda ()
             (let* ((hover (jsonrpc-request server :textDocument/hover
                                            (eglot--TextDocumentPositionParams)))
                    (contents (and hover (plist-get hover :contents))))
               (setq value (or (and contents (plist-get contents :value)) ""))
               (> (length value) 40)))
           60)
          (princ (format "hover: %s\n" (substring value 0 (min 120 (length value)))))
          (check (> (length value) 40) "hover returns a card")
          (check (or (fboundp 'gfm-view-mode) (not (string-match-p "\\*\\*" value)))
                 "hover is plain text when markdown-mode is missing"))
        ;; Generate related work through the command bound in relatex-mode.
        (relatex-generate-related-work)
        (check (wait-until (lambda ()
                             (save-excursion
                               (goto-char (point-min))
                               (search-forward "\\section{Related Work}" nil t)))
                           180)
               "related-work section inserted")
        (unless (save-excursion (goto-char (point-min)) (search-forward "\\section{Related Work}" nil t))
          (with-current-buffer "*Messages*" (princ (buffer-string)))
          (dolist (b (buffer-list))
            (when (string-match-p "stderr\\|events" (buffer-name b))
              (with-current-buffer b (princ (buffer-string))))))
        (check (null (cl-remove-if-not (lambda (p) (string-match-p "wants to edit" p)) prompts))
               "relatex's edits applied without a question")
        (save-some-buffers t)
        (eglot-shutdown server)))
    (princ (format "%d failed\n" failures))
    (kill-emacs (if (= failures 0) 0 1))))
;;; emacs_e2e.el ends here
