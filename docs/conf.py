# The manual's site (ci/docs.sh builds it): Markdown pages by MyST, the API reference of the
# public headers by Breathe from Doxygen's XML. Warnings are errors (sphinx-build -W).
import os

project = "stealcheck"
author = "the stealcheck authors"
release = "0.2.0"
extensions = ["myst_parser", "breathe"]
source_suffix = {".md": "markdown"}
# The site's source is the repository (sphinx-build -c docs . OUT): the manual in docs/, the
# README, and every other page the manual links to (proofs/, the folders' READMEs), so that
# a link between any two of them is checked.
root_doc = "docs/index"
include_patterns = [
    "README.md", "CHANGELOG.md", "docs/*.md", "docs/case-studies/*.md", "proofs/*.md",
    "models/README.md", "models/*/README.md", "bench/README.md", "litmus/*.md",
    "examples/README.md", "examples/case-studies/README.md", "stress/fuzz/README.md",
]
exclude_patterns = ["build", ".git"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
breathe_projects = {"stealcheck": os.environ.get("STEALCHECK_DOXYGEN_XML", "_build/doxygen/xml")}
breathe_default_project = "stealcheck"
breathe_domain_by_extension = {"hpp": "cpp"}
primary_domain = "cpp"
highlight_language = "none"
html_theme = "alabaster"
html_theme_options = {"description": "checking work-stealing deques", "fixed_sidebar": True}
html_show_sourcelink = False
# SPDX-License-Identifier: Apache-2.0
