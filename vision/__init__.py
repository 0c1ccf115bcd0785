"""Cameras and dice: turns frames into dice faces. Knows nothing of the game beyond the faces."""

import os

# OpenCV's own cap on the pixels of an image it decodes, for any format vision.limits does not
# check first; it is read when cv2 is first imported (vision.limits.MAX_PIXELS)
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")
