"""Example properties for `neatcheck external -- python3 example.py NAME`.

  sorted-insert   inserting into a sorted list keeps it sorted (true)
  reverse         reversing a list gives the same list (false: [0, 1])
  head-nonneg     no list starts with a negative number (false)
  div             100 // (x - 3) never fails (false: the error is reported)
  no-b            no string contains 'b' (false: "b")
  not-upper       no character is an upper-case letter (false: 'A')
  max             max(x, y) is at least x and y (true; both read in one
                  message with `values`, or one at a time with `--one-by-one`)
Add `--eager` to receive whole values instead of lazy handles.
"""

import sys

from neatcheck_client import serve, values

LIST = [{"name": "List", "ctors": [{"name": "Nil", "fields": []},
                                   {"name": "Cons", "fields": ["Int", "List"]}]}]


def to_list(h):
    """A lazy list, read completely."""
    out = []
    while h.ctor() == "Cons":
        out.append(h.field(0).value())
        h = h.field(1)
    return out


def json_list(v):
    out = []
    while v["ctor"] == "Cons":
        out.append(v["fields"][0])
        v = v["fields"][1]
    return out


def insert(x, xs):
    for i, y in enumerate(xs):
        if x <= y:
            return xs[:i] + [x] + xs[i:]
    return xs + [x]


def is_sorted(xs):
    return all(a <= b for a, b in zip(xs, xs[1:]))


def lazy_sorted(h):
    """Reads only up to the first descent."""
    prev = None
    while h.ctor() == "Cons":
        x = h.field(0).value()
        if prev is not None and x < prev:
            return False
        prev = x
        h = h.field(1)
    return True


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "reverse"
    eager = "--eager" in sys.argv
    get = json_list if eager else to_list
    if name == "sorted-insert":
        def prop(x, xs):
            if eager:
                xs = json_list(xs)
                if not is_sorted(xs):
                    return None
            elif not lazy_sorted(xs):
                return None
            else:
                xs = to_list(xs)
            return is_sorted(insert(x if eager else x.value(), xs))
        serve(LIST, ["Int", "List"], prop, eager)
    elif name == "reverse":
        serve(LIST, ["List"], lambda xs: (lambda l: l[::-1] == l)(get(xs)), eager)
    elif name == "head-nonneg":
        def prop(xs):
            if eager:
                return xs["ctor"] == "Nil" or xs["fields"][0] >= 0
            return xs.ctor() == "Nil" or xs.field(0).value() >= 0
        serve(LIST, ["List"], prop, eager)
    elif name == "div":
        serve([], ["Int"], lambda x: 100 // ((x if eager else x.value()) - 3) != 1000, eager)
    elif name == "no-b":
        serve([], ["String"], lambda s: "b" not in (s if eager else s.chars()), eager)
    elif name == "not-upper":
        serve([], ["Char"], lambda c: not (c if eager else c.value()).isupper(), eager)
    elif name == "max":
        def prop(x, y):
            if eager:
                a, b = x, y
            elif "--one-by-one" in sys.argv:
                a, b = x.value(), y.value()
            else:
                a, b = values(x, y)
            return max(a, b) >= a and max(a, b) >= b
        serve([], ["Int", "Int"], prop, eager)
    else:
        sys.exit("unknown example " + name)


if __name__ == "__main__":
    main()
