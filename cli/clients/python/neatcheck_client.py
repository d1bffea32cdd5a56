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
    """A position of the input under search. Nothing is read until asked.

    Within a run each position is asked for at most once: the answers are
    kept (by path) until the run ends.
    """

    def __init__(self, session, path):
        self._session = session
        self._path = path

    def _ask(self):
        return self._session.ask(self._path)

    def ctor(self):
        """The constructor's name at this position (reads it). A String
        position holds list cells: `Nil` or `Cons` (a Char and the rest)."""
        return self._ask()["ctor"]

    def arity(self):
        """The number of fields of the constructor at this position."""
        return self._ask()["arity"]

    def field(self, i):
        """The handle of field `i` (reads this position, not the field)."""
        self._ask()
        return Handle(self._session, self._path + [i])

    def value(self):
        """An atom (Int, Nat, Bool, Char as a one-character str, a range's
        int) at this position."""
        return self._ask()["value"]

    def chars(self):
        """The characters of a String position, one cell and one character
        read per step (stop early and the rest stays unread)."""
        cell = self
        while cell.ctor() == "Cons":
            yield cell.field(0).value()
            cell = cell.field(1)

    def force(self):
        """The whole value below this position, as plain JSON (reads all)."""
        return self._session.request({"force": self._path})["value"]


def values(*handles):
    """The atoms at several positions, asked for in one message (those not
    asked yet in this run). Use it where the predicate needs all of them
    anyway: asking for a position the predicate would not have read makes
    the search less lazy (more runs)."""
    if handles:
        handles[0]._session.ask_all([h._path for h in handles])
    return [h.value() for h in handles]


class _Session:
    def __init__(self):
        self._answers = {}

    def new_run(self):
        self._answers = {}

    def request(self, message):
        _send(message)
        return json.loads(sys.stdin.readline())

    def ask(self, path):
        key = tuple(path)
        answer = self._answers.get(key)
        if answer is None:
            answer = self.request({"ask": path})
            self._answers[key] = answer
        return answer

    def ask_all(self, paths):
        """Asks for the positions not yet answered, in one message, in
        order (the order of the reads is the order of the paths)."""
        missing, seen = [], set()
        for p in paths:
            key = tuple(p)
            if key not in self._answers and key not in seen:
                seen.add(key)
                missing.append(p)
        if len(missing) == 1:
            self.ask(missing[0])
        elif missing:
            answers = self.request({"ask": missing})["answers"]
            for p, a in zip(missing, answers):
                self._answers[tuple(p)] = a


def _send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(types, args, prop, eager=False):
    """Declares `types` and the argument types `args`, then answers runs.

    Lazy mode: `prop` gets one Handle per argument. Eager mode: it gets the
    whole values as JSON (`{"ctor": ..., "fields": [...]}`, ints, bools,
    Chars and Strings as str).
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
            session.new_run()
            inputs = [Handle(session, [i]) for i in range(len(args))]
        try:
            result = prop(*inputs)
        except Exception as e:  # the property failed: report it
            _send({"error": "%s: %s" % (type(e).__name__, e)})
            continue
        _send({"result": "discard" if result is None else bool(result)})
