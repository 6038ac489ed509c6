from sizes import human_size


def test_bytes():
    assert human_size(512) == "512 B"


def test_kibibytes():
    assert human_size(10240) == "10.0 KiB"


def test_just_under_a_mebibyte():
    assert human_size(1023 * 1024) == "1023.0 KiB"
