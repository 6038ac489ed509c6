from usernames import is_valid_username


def test_plain_name():
    assert is_valid_username("alice") is True


def test_too_short():
    assert is_valid_username("al") is False


def test_must_start_with_a_letter():
    assert is_valid_username("1alice") is False
