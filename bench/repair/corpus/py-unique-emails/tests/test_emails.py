from emails import unique_emails


def test_distinct_addresses_kept():
    assert unique_emails(["a@x.org", "b@x.org"]) == ["a@x.org", "b@x.org"]


def test_blank_entries_dropped():
    assert unique_emails(["  ", "a@x.org"]) == ["a@x.org"]


def test_duplicates_dropped():
    assert unique_emails(["a@x.org", "b@x.org", "a@x.org"]) == ["a@x.org", "b@x.org"]
