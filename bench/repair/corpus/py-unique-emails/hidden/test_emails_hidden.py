from emails import unique_emails


def test_case_and_spaces():
    assert unique_emails([" Ann@X.org", "ann@x.ORG ", "bob@y.net", "BOB@y.net", "ann@x.org"]) == ["Ann@X.org", "bob@y.net"]
    assert unique_emails([]) == []
    assert unique_emails(["c@z.io"] * 4) == ["c@z.io"]
