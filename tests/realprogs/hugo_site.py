"""hugo_site.py SITE PAGES: a deterministic hugo site for tests/programs/t_hugo.sh:
config, a minimal layouts/ (no theme) and PAGES pages of markdown in three
sections with tags, categories, tables and code blocks in five languages
(chroma highlights them with regexp2: the hot small functions). Every
page has a fixed date, so the built site does not depend on the clock."""
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(29)
def w(p, s):
    p = os.path.join(root, p); os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(s)
w("config.toml", '''baseURL = "http://example.org/"
title = "gorewrite test site"
languageCode = "en"
disableKinds = []
[markup.highlight]
  noClasses = false
[taxonomies]
  tag = "tags"
  category = "categories"
''')
w("layouts/_default/baseof.html", '''<!doctype html><html><head><title>{{ .Title }} | {{ .Site.Title }}</title></head>
<body><nav>{{ range .Site.Menus.main }}<a href="{{ .URL }}">{{ .Name }}</a>{{ end }}</nav>
{{ block "main" . }}{{ end }}
<footer>{{ len .Site.RegularPages }} pages</footer></body></html>
''')
w("layouts/_default/single.html", '''{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>{{ .Date.Format "2006-01-02" }} {{ .WordCount }} words, {{ .ReadingTime }} min</p>
{{ .TableOfContents }}
{{ .Content }}
<ul>{{ range .Params.tags }}<li><a href="{{ "/tags/" | relURL }}{{ . | urlize }}/">{{ . }}</a></li>{{ end }}</ul>
{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">prev</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">next</a>{{ end }}
<h2>Related</h2><ul>{{ range first 3 (where .Site.RegularPages "Section" .Section) }}<li>{{ .Title }}</li>{{ end }}</ul>
</article>{{ end }}
''')
w("layouts/_default/list.html", '''{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary | plainify | truncate 80 }}</li>{{ end }}</ul>
{{ template "_internal/pagination.html" . }}{{ end }}
''')
w("layouts/index.html", '''{{ define "main" }}<h1>{{ .Site.Title }}</h1>
{{ range .Site.Sections }}<h2>{{ .Title }}</h2><ul>{{ range first 5 .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title | upper }}</a></li>{{ end }}</ul>{{ end }}
{{ range $name, $t := .Site.Taxonomies.tags }}<span>{{ $name }} ({{ len $t }})</span>{{ end }}{{ end }}
''')
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega goroutine channel stack frame probe clock sample".split()
code = {
 "go": 'package main\n\nimport "fmt"\n\nfunc fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\treturn fib(n-1) + fib(n-2) // naive\n}\n\nfunc main() { fmt.Println(fib(%d)) }\n',
 "python": 'def fib(n):\n    """naive"""\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nprint([fib(i) for i in range(%d)])\n',
 "c": '#include <stdio.h>\nstatic int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint main(void) { printf("%%d\\n", fib(%d)); return 0; }\n',
 "javascript": 'const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));\nconsole.log(`fib=${fib(%d)}`);\n',
 "bash": 'for i in $(seq 1 %d); do\n  echo "line $i" | sed -e "s/line/row/" >> out.txt\ndone\n',
}
sections = ["posts", "notes", "docs"]
for i in range(n):
    sec = sections[i % 3]
    tags = rnd.sample(words[:12], 3)
    body = []
    for h in range(rnd.randrange(2, 5)):
        body.append("## %s %s %d\n" % (rnd.choice(words).title(), rnd.choice(words), h))
        for p in range(rnd.randrange(1, 4)):
            body.append(" ".join(rnd.choice(words) for _ in range(rnd.randrange(30, 90))).capitalize()
                        + ", with *emphasis*, **strong**, `code` and a [link](https://example.org/%d).\n" % i)
        lang = rnd.choice(sorted(code))
        body.append("```%s\n%s```\n" % (lang, code[lang] % rnd.randrange(5, 30)))
        body.append("\n".join("- item %s %d" % (rnd.choice(words), k) for k in range(rnd.randrange(2, 6))) + "\n")
        body.append("| a | b |\n| --- | --- |\n| %d | %s |\n" % (i, rnd.choice(words)))
    w("content/%s/page-%04d.md" % (sec, i), '''---
title: "Page %d %s"
date: 2023-%02d-%02dT10:00:00Z
tags: [%s]
categories: [%s]
---
%s
''' % (i, rnd.choice(words), 1 + i % 12, 1 + i % 28, ", ".join(tags), rnd.choice(sections), "\n".join(body)))
