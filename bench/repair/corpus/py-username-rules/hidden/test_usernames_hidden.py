from usernames import is_valid_username


def test_names():
    assert is_valid_username("bob_smith-2") is True
    assert is_valid_username("_bob") is False
    assert is_valid_username("-bob") is False
    assert is_valid_username("bob_") is False
    assert is_valid_username("a" * 16) is True
    assert is_valid_username("a" * 17) is False
    assert is_valid_username("\u00e9lodie") is False
    assert is_valid_username("bo b") is False
