"""A position's JSON snapshot: `schema` declares it once (every key, its shape, its codec and the
position's part it fills, as dataclasses that are also the pages' typed read view), `kinds` the
shapes and codecs it is made of, `position` loads and dumps a position by that declaration, and
`rules` refuses a snapshot the rules make impossible.
"""
