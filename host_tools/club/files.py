"""The club's files, in its folder: written aside and renamed (a power cut leaves the old file or the
new one, never half of one): tournament.json (the pairings and results), records.json (the games as
the feed has them), standings.txt, crosstable.txt and round-N.pgn."""

import json
import os

from host_tools.club.tournament import Tournament

NAMES = ("tournament.json", "records.json", "standings.txt", "crosstable.txt")


def default_folder():
    """The club's files in the user's data folder (platformdirs: ~/.local/share/scacchiera/club)."""
    import platformdirs
    return os.path.join(platformdirs.user_data_dir("scacchiera", appauthor=False), "club")


def write(path, text):
    """``text`` into ``path`` whole: written to a file beside it, synced, then renamed over it."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class ClubFiles:
    """What a club keeps in ``folder`` (made if missing)."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.paths = dict((name, os.path.join(folder, name)) for name in NAMES)

    def load(self):
        """(tournament, records, bound) as last written; (None, {}, {}) for a new club."""
        if not os.path.exists(self.paths["tournament.json"]):
            return None, {}, {}
        tournament = Tournament.load(self.paths["tournament.json"])
        records, bound = {}, {}
        if os.path.exists(self.paths["records.json"]):
            with open(self.paths["records.json"], encoding="utf-8") as f:
                data = json.load(f)
            records, bound = data["records"], data["bound"]
        return tournament, records, bound

    def texts(self, dirty, tournament, records, bound, round_pgn):
        """[(path, text)] of what ``dirty`` names ("tournament", "records", round numbers), from the
        club's state (read with its lock held: ``write`` them after letting it go)."""
        out = []
        if "tournament" in dirty:
            out += [(self.paths["tournament.json"], json.dumps(tournament.to_json(), ensure_ascii=False, indent=1)),
                    (self.paths["standings.txt"], tournament.standings_text()),
                    (self.paths["crosstable.txt"], tournament.crosstable_text())]
        if "records" in dirty:
            out.append((self.paths["records.json"], json.dumps({"records": records, "bound": bound})))
        for number in sorted(n for n in dirty if isinstance(n, int)):
            text = round_pgn(number)
            if text is not None:
                out.append((os.path.join(self.folder, "round-%d.pgn" % number), text))
        return out
