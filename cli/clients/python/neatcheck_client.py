"""A client of the `neatcheck external` protocol (JSON lines on stdin/stdout).

Declare the datatypes and the arguments' types, then give a predicate over
lazy handles: `neatcheck` searches for the smallest arguments that make it
false, and only the positions the predicate looks at are searched.

    from neatcheck_client import serve

    TYPES = [{"name": "List", "ctors": [{"name": "Nil", "fields": []},
                                        {"name": "Cons", "fields": ["Int", "List"]}]}]

    def prop(xs):                     # xs: a Handle
        return xs.ctor() == "Nil" or xs.field(0).value() >= 0

    serve(TYPES, ["List"], prop)

Run it with `neatcheck external -- python3 my_property.py`.
"""

import json
import sys


class Handle:
    """A position of the input under search. Nothing is read until asked."""

    def __init__(self, session, path):
        self._session = session
        self._path = path
        self._answer = None

    def _ask(self):
        if self._answer is None:
            self._answer = self._session.request({"ask": self._path})
        return self._answer

    def ctor(self):
        """The constructor's name at this position (reads it)."""
        return self._ask()["ctor"]

    def arity(self):
        """The number of fields of the constructor at this position."""
        return self._ask()["arity"]

    def field(self, i):
        """The handle of field `i` (reads this position, not the field)."""
        self._ask()
        return Handle(self._session, self._path + [i])

    def value(self):
        """An atom (Int, Nat, Bool) at this position."""
        return self._ask()["value"]

    def force(self):
        """The whole value below this position, as plain JSON (reads all)."""
        return self._session.request({"force": self._path})["value"]


class _Session:
    def request(self, message):
        _send(message)
        return json.loads(sys.stdin.readline())


def _send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(types, args, prop, eager=False):
    """Declares `types` and the argument types `args`, then answers runs.

    Lazy mode: `prop` gets one Handle per argument. Eager mode: it gets the
    whole values as JSON (`{"ctor": ..., "fields": [...]}`, ints, bools).
    It returns True, False or None (discard: a precondition failed); an
    exception is reported to neatcheck as the run's error.
    """
    _send({"types": types, "args": args, "mode": "eager" if eager else "lazy"})
    session = _Session()
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("done"):
            return
        if eager:
            inputs = message["args"]
        else:
            inputs = [Handle(session, [i]) for i in range(len(args))]
        try:
            result = prop(*inputs)
        except Exception as e:  # the property failed: report it
            _send({"error": "%s: %s" % (type(e).__name__, e)})
            continue
        _send({"result": "discard" if result is None else bool(result)})
