"""Many people in one site (SPEC §9): who they are, and which records are whose.

`files` reads `content/people/*.yaml` (a person each: the fields of profile.yaml,
plus `slug` and `coauthors`) and checks what can be checked without the records:
slugs named twice and anchors claimed twice. `attribution` decides, from the
shown records, which records belong to whom: to members by name, variants and
identifiers, split by co-authors where anchors say so, and, with
`site.yaml` `people: authors`, to a person for every author, namesakes split by
the same co-author grouping that `sitegen fetch --review` prints.
The pages themselves are a page kind: `sitegen.pages.people`.
"""
