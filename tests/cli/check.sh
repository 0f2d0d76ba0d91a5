# check.sh — kept for scripts that make their own temporary folder: the helpers of lib.sh
# (check, bad, die, skip, skip_part, need_corpus, need_tools, finish) without its setup.
# New scripts source lib.sh instead.
LIB_FUNCTIONS_ONLY=1 . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
