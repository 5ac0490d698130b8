"""A paged view of a text file: the example the README reads."""

from dataclasses import dataclass


@dataclass
class Window:
    """Lines start_line..start_line + limit - 1 of a file."""

    path: str
    start_line: int = 1
    limit: int = 500

    def lines(self):
        with open(self.path, encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                if number >= self.start_line + self.limit:
                    break
                if number >= self.start_line:
                    yield number, line.rstrip("\n")

    def next_page(self):
        return Window(self.path, self.start_line + self.limit, self.limit)


if __name__ == "__main__":
    import sys

    for number, text in Window(sys.argv[1]).lines():
        print(f"{number:4} | {text}")
